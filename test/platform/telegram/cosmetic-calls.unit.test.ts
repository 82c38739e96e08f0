import { HttpError } from "grammy";
import { describe, expect, test } from "vitest";
import { cosmeticNeverFails } from "../../../src/platform/telegram/api-transformers";

const logger = { info: () => undefined } as never;
const cut = async () => {
  throw new HttpError("Network request failed!", new Error("ECONNREFUSED"));
};
const refused = async () => ({ ok: false as const, error_code: 502, description: "Bad Gateway" });
const run = (prev: unknown, method: string, payload: unknown) =>
  cosmeticNeverFails(logger)(prev as never, method as never, payload as never);

describe("cosmetic calls", () => {
  test("taking the buttons off a message answers as done whatever its error", async () => {
    const strip = { chat_id: 1, message_id: 2, reply_markup: { inline_keyboard: [] } };
    expect(await run(cut, "editMessageReplyMarkup", strip)).toMatchObject({ ok: true });
    expect(await run(refused, "editMessageReplyMarkup", strip)).toMatchObject({ ok: true });
  });

  test("anything else fails as it came: new buttons, a message (a chat action's caller logs its own)", async () => {
    const buttons = { chat_id: 1, message_id: 2, reply_markup: { inline_keyboard: [[{ text: "a" }]] } };
    await expect(run(cut, "editMessageReplyMarkup", buttons)).rejects.toBeInstanceOf(HttpError);
    await expect(run(cut, "sendMessage", { chat_id: 1, text: "hi" })).rejects.toBeInstanceOf(HttpError);
    await expect(run(cut, "sendChatAction", { chat_id: 1, action: "typing" })).rejects.toBeInstanceOf(
      HttpError,
    );
    expect(await run(refused, "sendMessage", { chat_id: 1, text: "hi" })).toMatchObject({ ok: false });
  });
});
