import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { telegramLimits } from "../../../src/domain/generations/deliver/send-outputs";
import { generations } from "../../../src/platform/db/schema";
import {
  eventually,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
  testTelegramRetry,
} from "../../support/harness";
import { askInline, confirmIn, placeOffer } from "../../support/inline";

/**
 * Inline mode with pictures that Telegram keeps as documents (here every
 * picture is over a lowered photo limit, as a real one over 10 MB would be):
 * the kind of each file is recorded and cached results name it; a retried
 * delivery reuses the file it uploaded; expired queries are routine.
 */
describe("inline mode: file kinds, retries and expired queries", () => {
  let h: Harness;
  const logs: string[] = [];
  beforeAll(async () => {
    h = await startHarness({
      env: { LOG_LEVEL: "info" },
      logs,
      policy: { telegramLimits: { ...telegramLimits, photoMaxBytes: 1 } },
    });
  });
  afterAll(async () => h?.stop());

  const rowsOf = (userId: number) => h.db.db.select().from(generations).where(eq(generations.userId, userId));
  const deliveredOf = (userId: number, count = 1) =>
    eventually(async () => {
      const rows = (await rowsOf(userId)).filter((g) => g.state === "delivered");
      return rows.length >= count ? rows : undefined;
    });
  const inlineView = (id: string) => {
    const view = h.tg.inlineMessage(id);
    if (!view) throw new Error(`no inline message ${id}`);
    return view;
  };
  /** The placed message once it shows the result. */
  const shownInPlace = (id: string) =>
    eventually(async () => {
      const view = inlineView(id);
      return view.document ? view : undefined;
    });
  const errorLinesSince = (from: number) =>
    logs
      .slice(from)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((l) => l.level >= 50);

  test("a picture that went out as a document is recorded so, offered inline as a cached document, and the answer is accepted", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    await requestImage(user, "a huge harbour at dawn");
    const [sent] = await deliveredOf(user.id);
    expect(sent?.fileKinds).toEqual(["document"]);
    const document = user.messages().find((m) => m.document?.file_id === sent?.fileIds?.[0]);
    expect(document?.photo).toBeUndefined();

    // delivered in place too: uploaded as a document, the placed message edited to it
    const { inlineMessageId } = await placeOffer(user, "a huge lighthouse", group);
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const both = await deliveredOf(user.id, 2);
    const placed = both.find((g) => g.inlineMessageId === inlineMessageId);
    expect(placed?.fileKinds).toEqual(["document"]);
    const shown = await shownInPlace(inlineMessageId);
    expect(shown.document?.file_id).toBe(placed?.fileIds?.[0]);

    const { id, results, answer } = await askInline(user, "huge");
    expect(answer.is_personal).toBe(true);
    const cached = results.filter((r) => r.id.startsWith("r:"));
    expect(cached.map((r) => r.type)).toEqual(["document", "document"]);
    expect(cached.map((r) => r.document_file_id).sort()).toEqual(
      [sent?.fileIds?.[0], placed?.fileIds?.[0]].sort(),
    );
    expect(cached.every((r) => (r.title ?? "").includes("huge"))).toBe(true);
    const pick = cached[0]!;
    const again = user.chooseInlineResult(id, pick.id, { chat: group });
    expect(again.message.document?.file_id).toBe(pick.document_file_id);
  });

  test("a result placed in a group shows only there: its upload to the private chat is taken back", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "a quiet harbour", group);
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const [g] = await deliveredOf(user.id);
    const shown = await shownInPlace(inlineMessageId);
    expect(shown.document?.file_id).toBe(g?.fileIds?.[0]);
    // uploaded to the private chat for its file_id, then deleted there
    const upload = h.tg.callsOf("sendDocument").find((c) => c.params.chat_id === user.id);
    expect(upload?.response.ok).toBe(true);
    const copies = (options: { includeDeleted?: boolean }) =>
      user.messages(options).filter((m) => m.document?.file_id === g?.fileIds?.[0]);
    expect(copies({ includeDeleted: true })).toHaveLength(1);
    expect(copies({})).toEqual([]);
  });

  test("an older result without recorded kinds is guessed; when Telegram refuses the guess, the answer comes without it", async () => {
    const user = await startedUser(h);
    await requestImage(user, "an old barn");
    const [g] = await deliveredOf(user.id);
    // as delivered before kinds were recorded: a picture is guessed to be a photo, but this one is a document
    await h.db.db.update(generations).set({ fileKinds: null }).where(eq(generations.id, g!.id));
    const from = logs.length;

    const { id, results } = await askInline(user, "old barn");
    expect(results.some((r) => r.id.startsWith("o:"))).toBe(true);
    expect(results.some((r) => r.id.startsWith("r:"))).toBe(false);
    const attempts = h.tg.callsOf("answerInlineQuery").filter((c) => c.params.inline_query_id === id);
    expect(attempts.map((c) => c.response.ok)).toEqual([false, true]);
    expect(JSON.stringify(attempts[0]?.response)).toMatch(/can't use file of type Document as Photo/);
    expect(errorLinesSince(from)).toEqual([]);
  });

  test("a delivery retried after the edit in place failed shows the file it uploaded, without a second upload", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "a patient heron", group);
    // the upload succeeds, then showing it in place fails, every try of the attempt (as a crash between the two would leave it)
    const tries = testTelegramRetry.attempts;
    h.tg.failNext("editMessageMedia", { code: 500, description: "Internal Server Error" }, tries);
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const [g] = await deliveredOf(user.id);
    const shown = await shownInPlace(inlineMessageId);
    expect(shown.document?.file_id).toBe(g?.fileIds?.[0]);
    expect(g).toMatchObject({ deliveryAttempts: 2, fileKinds: ["document"] });
    const edits = h.tg
      .callsOf("editMessageMedia")
      .filter((c) => c.params.inline_message_id === inlineMessageId);
    expect(edits.map((c) => c.response.ok)).toEqual([...Array<boolean>(tries).fill(false), true]);
    // one copy in the user's private chat, not two
    const uploads = h.tg.callsOf("sendDocument").filter((c) => c.params.chat_id === user.id);
    expect(uploads).toHaveLength(1);
    expect(user.messages().filter((m) => m.document)).toHaveLength(1);
  });

  test("queries answered too late (inline per keystroke, a slow press) are logged at info, never as errors", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "a late owl", group);
    const from = logs.length;
    // from now on every answer comes too late for Telegram
    h.tg.setRules({ queryMaxAgeMs: -1 });
    try {
      const queryId = user.inlineQuery("a late owl");
      await eventually(async () =>
        h.tg.callsOf("answerInlineQuery").some((c) => c.params.inline_query_id === queryId)
          ? true
          : undefined,
      );
      // Confirm pressed, its answer refused: the request is made all the same
      confirmIn(user, inlineMessageId);
      const [g] = await deliveredOf(user.id);
      expect(g?.inlineMessageId).toBe(inlineMessageId);
      const refused = h.tg.callsOf("answerCallbackQuery").filter((c) => !c.response.ok);
      expect(refused.length).toBeGreaterThan(0);
      await eventually(async () => {
        const lines = logs.slice(from).map((line) => JSON.parse(line) as { level: number; msg: string });
        return lines.some((l) => l.level === 30 && l.msg === "query answered too late") ? true : undefined;
      });
      expect(errorLinesSince(from)).toEqual([]);
      // the chat is not told that something went wrong
      expect(user.messages().some((m) => m.text?.includes("went wrong"))).toBe(false);
    } finally {
      h.tg.setRules({ queryMaxAgeMs: 15_000 });
    }
  });
});
