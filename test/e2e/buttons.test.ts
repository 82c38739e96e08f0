import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { processedUpdates } from "../../src/db/schema";
import { eventually, type Harness, startedUser, startHarness } from "../support/harness";

/** Every press gets an answer, and a repeated press never turns into an error. */
describe("buttons", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  test("a double tap on a language answers twice and shows no error", async () => {
    const user = await startedUser(h);
    await user.send("/language");
    const menu = await user.waitFor((m) => Boolean(m.reply_markup));
    const first = await user.press("English", { message: menu });
    const second = await user.press("English", { message: menu });
    await user.waitForAnswer(first);
    await user.waitForAnswer(second);
    // both presses were handled to the end: the journal holds no update still pending
    await eventually(async () => {
      const pending = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"));
      return pending === 0 ? true : undefined;
    });
    expect(user.messages().some((m) => m.text?.includes("went wrong"))).toBe(false);
  });

  test("a button nothing knows (an old message) is still answered", async () => {
    const user = await startedUser(h);
    await h.tg.call("sendMessage", {
      chat_id: user.chatId,
      text: "an old offer",
      reply_markup: { inline_keyboard: [[{ text: "Old confirm", callback_data: "qc:AAAAAAAAAAAA" }]] },
    });
    const id = await user.press("Old confirm");
    expect(await user.waitForAnswer(id)).toBeDefined();
  });
});
