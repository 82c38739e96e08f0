import type { CallbackQuery, Message } from "grammy/types";
import { describe, expect, test } from "vitest";
import { createShownMessages } from "../../../src/platform/telegram/shown-messages";

/**
 * The transformer in front of the Bot API that skips edits changing nothing
 * and second answers to a press. `prev` here is a recording Bot API.
 */

interface Sent {
  method: string;
  payload: Record<string, unknown>;
}

const chat = { id: 4242, type: "private" as const, first_name: "Tester" };
const keyboard = (...labels: string[]) => ({
  inline_keyboard: [labels.map((text) => ({ text, callback_data: text }))],
});

function setup(options: { failAnswers?: boolean } = {}) {
  const shown = createShownMessages();
  const sent: Sent[] = [];
  let clock = 1_000;
  let nextId = 1;
  // a minimal Bot API: a send or an edit answers with the message as it now is
  const prev = (async (method: string, payload: Record<string, unknown>) => {
    sent.push({ method, payload });
    if (method === "answerCallbackQuery") {
      return options.failAnswers
        ? { ok: false, error_code: 400, description: "Bad Request: query is too old" }
        : { ok: true, result: true };
    }
    const now = ++clock;
    const message = {
      message_id: method === "sendMessage" ? nextId++ : payload.message_id,
      chat,
      date: 1_000,
      ...(method === "sendMessage" ? {} : { edit_date: now }),
      ...(typeof payload.text === "string" ? { text: payload.text } : {}),
      ...(payload.reply_markup ? { reply_markup: payload.reply_markup } : {}),
    };
    return { ok: true, result: message };
  }) as never;
  const call = (method: string, payload: Record<string, unknown>) =>
    shown.transformer(prev, method as never, payload as never);
  const send = async (text: string, markup?: unknown) => {
    const r = (await call("sendMessage", {
      chat_id: chat.id,
      text,
      ...(markup ? { reply_markup: markup } : {}),
    })) as { ok: true; result: Message };
    return r.result;
  };
  const count = (method: string) => sent.filter((s) => s.method === method).length;
  return { shown, sent, call, send, count };
}

function press(id: string, message: Record<string, unknown>): CallbackQuery {
  return {
    id,
    from: { id: chat.id, is_bot: false, first_name: "Tester" },
    chat_instance: "ci",
    data: "x",
    message: message as unknown as Message,
  } as CallbackQuery;
}

describe("shown messages", () => {
  test("an editMessageText repeating the text and buttons shown is not sent; a change is", async () => {
    const { call, send, count } = setup();
    const m = await send("Pick one", keyboard("a", "b"));
    const edit = {
      chat_id: chat.id,
      message_id: m.message_id,
      text: "Pick one",
      reply_markup: keyboard("a", "b"),
    };
    const skipped = await call("editMessageText", edit);
    expect(skipped).toMatchObject({ ok: false, error_code: 400 });
    expect((skipped as { description: string }).description).toContain("message is not modified");
    expect(count("editMessageText")).toBe(0);

    // same text, other buttons: sent; then that exact state again: not sent
    await call("editMessageText", { ...edit, reply_markup: keyboard("c") });
    expect(count("editMessageText")).toBe(1);
    await call("editMessageText", { ...edit, reply_markup: keyboard("c") });
    expect(count("editMessageText")).toBe(1);
    // other text, same buttons: sent
    await call("editMessageText", { ...edit, text: "Pick another", reply_markup: keyboard("c") });
    expect(count("editMessageText")).toBe(2);
  });

  test("no keyboard and an empty keyboard are the same buttons", async () => {
    const { call, send, count } = setup();
    const m = await send("Done");
    await call("editMessageText", {
      chat_id: chat.id,
      message_id: m.message_id,
      text: "Done",
      reply_markup: { inline_keyboard: [[]] },
    });
    expect(count("editMessageText")).toBe(0);
  });

  test("an edit with a parse mode or entities, or of an unknown message, is always sent", async () => {
    const { call, send, count } = setup();
    const m = await send("Plain");
    await call("editMessageText", {
      chat_id: chat.id,
      message_id: m.message_id,
      text: "Plain",
      parse_mode: "HTML",
    });
    await call("editMessageText", {
      chat_id: chat.id,
      message_id: m.message_id,
      text: "Plain",
      entities: [{ type: "bold", offset: 0, length: 5 }],
    });
    await call("editMessageText", { chat_id: chat.id, message_id: 999, text: "Plain" });
    expect(count("editMessageText")).toBe(3);
  });

  test("an editMessageReplyMarkup leaving the buttons as they are is not sent", async () => {
    const { call, send, count } = setup();
    const m = await send("Menu", keyboard("a"));
    await call("editMessageReplyMarkup", {
      chat_id: chat.id,
      message_id: m.message_id,
      reply_markup: keyboard("a"),
    });
    expect(count("editMessageReplyMarkup")).toBe(0);
    // removing them is sent once; removing them again is not
    await call("editMessageReplyMarkup", { chat_id: chat.id, message_id: m.message_id });
    await call("editMessageReplyMarkup", { chat_id: chat.id, message_id: m.message_id });
    expect(count("editMessageReplyMarkup")).toBe(1);
  });

  test("a second answerCallbackQuery for the same press is not sent, and answers true", async () => {
    const { shown, call, count } = setup();
    expect(shown.answered("q1")).toBe(false);
    expect(await call("answerCallbackQuery", { callback_query_id: "q1", text: "ok" })).toEqual({
      ok: true,
      result: true,
    });
    expect(shown.answered("q1")).toBe(true);
    expect(await call("answerCallbackQuery", { callback_query_id: "q1", text: "again" })).toEqual({
      ok: true,
      result: true,
    });
    expect(count("answerCallbackQuery")).toBe(1);
    // another press is answered
    await call("answerCallbackQuery", { callback_query_id: "q2" });
    expect(count("answerCallbackQuery")).toBe(2);
  });

  test("an answer Telegram refused is not counted as answered", async () => {
    const { shown, call, count } = setup({ failAnswers: true });
    await call("answerCallbackQuery", { callback_query_id: "q1" });
    expect(shown.answered("q1")).toBe(false);
    await call("answerCallbackQuery", { callback_query_id: "q1" });
    expect(count("answerCallbackQuery")).toBe(2);
  });

  test("a press teaches what an unknown message shows", async () => {
    const { shown, call, count } = setup();
    shown.notePressed(
      press("q1", { message_id: 77, chat, date: 500, text: "Old menu", reply_markup: keyboard("a") }),
    );
    await call("editMessageText", {
      chat_id: chat.id,
      message_id: 77,
      text: "Old menu",
      reply_markup: keyboard("a"),
    });
    expect(count("editMessageText")).toBe(0);
    // an inaccessible message (date 0) teaches nothing
    shown.notePressed(press("q2", { message_id: 78, chat, date: 0 }));
    await call("editMessageReplyMarkup", { chat_id: chat.id, message_id: 78 });
    expect(count("editMessageReplyMarkup")).toBe(1);
  });

  test("a stale press (the message as it was before the bot's latest edit) does not undo what the bot knows", async () => {
    const { shown, call, send, count } = setup();
    const m = await send("Menu", keyboard("a"));
    // the bot removed the buttons; a press on the menu as the client still showed it arrives after
    await call("editMessageReplyMarkup", { chat_id: chat.id, message_id: m.message_id });
    expect(count("editMessageReplyMarkup")).toBe(1);
    shown.notePressed(press("q1", { ...m }));
    // removing buttons that are already gone is not sent
    await call("editMessageReplyMarkup", { chat_id: chat.id, message_id: m.message_id });
    expect(count("editMessageReplyMarkup")).toBe(1);
  });
});
