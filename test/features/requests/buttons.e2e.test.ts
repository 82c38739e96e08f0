import { eq, gt, max } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { processedUpdates } from "../../../src/platform/db/schema";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";

/** Every press gets an answer, and a repeated press never turns into an error. */
describe("buttons", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  const pendingUpdates = () => h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"));
  /** Waits until every update the bot took so far was handled to the end. */
  const settled = () => eventually(async () => ((await pendingUpdates()) === 0 ? true : undefined));

  test("a double tap on a language answers twice and shows no error", async () => {
    const user = await startedUser(h);
    await user.send("/language");
    const menu = await user.waitFor((m) => Boolean(m.reply_markup));
    const first = await user.press("English", { message: menu });
    const second = await user.press("English", { message: menu });
    await user.waitForAnswer(first);
    await user.waitForAnswer(second);
    // both presses were handled to the end: the journal holds no update still pending
    await settled();
    expect(user.messages().some((m) => m.text?.includes("went wrong"))).toBe(false);
  });

  test("a button nothing knows (an old message) is answered with no text and changes nothing in the chat", async () => {
    const user = await startedUser(h);
    await h.tg.call("sendMessage", {
      chat_id: user.chatId,
      text: "an old offer",
      reply_markup: { inline_keyboard: [[{ text: "Old confirm", callback_data: "qc:AAAAAAAAAAAA" }]] },
    });
    // the welcome handled to the end: whatever the bot sends for the press comes after this
    await settled();
    const [{ last } = { last: null }] = await h.db.db
      .select({ last: max(processedUpdates.updateId) })
      .from(processedUpdates);
    // every Bot API call naming the chat (sends, edits, deletions, chat actions), by method
    const toChat = () =>
      h.tg.calls.filter((c) => Number(c.params.chat_id) === user.chatId).map((c) => c.method);
    const callsBefore = toChat();
    expect(callsBefore).toContain("sendMessage");
    const chatBefore = user.messages({ includeDeleted: true });

    const id = await user.press("Old confirm");
    // handled to the end: the press is the one update journaled since, and it is done
    const journaled = await eventually(async () => {
      const rows = await h.db.db
        .select({ state: processedUpdates.state })
        .from(processedUpdates)
        .where(gt(processedUpdates.updateId, last ?? 0));
      return rows.length > 0 && rows.every((r) => r.state === "done") ? rows : undefined;
    });
    expect(journaled).toEqual([{ state: "done" }]);
    expect(await pendingUpdates()).toBe(0);

    // answered while it was handled: the fallback's bare answer stops the button's spinner,
    // with no toast and no alert, and only once
    expect(user.callbackAnswer(id)).toEqual({});
    expect(h.tg.callsOf("answerCallbackQuery").filter((c) => c.params.callback_query_id === id)).toHaveLength(
      1,
    );

    // nothing sent, edited or deleted in the chat because of it
    expect(toChat()).toEqual(callsBefore);
    expect(user.messages({ includeDeleted: true })).toEqual(chatBefore);
  });
});
