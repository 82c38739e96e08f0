import { describe, expect, test } from "vitest";
import { etaSeconds, progressView } from "../../../src/features/broadcasts/progress";
import type { Broadcast, RecipientCounts } from "../../../src/features/broadcasts/store";
import { translateFor as t, translate } from "../../../src/platform/i18n/i18n";

const broadcast = (patch: Partial<Broadcast>): Broadcast => ({
  id: "00000000-0000-4000-8000-000000000001",
  adminId: 1,
  text: "news",
  state: "sending",
  sourceChatId: 1,
  sourceMessageIds: [5],
  audience: { kind: "everyone" },
  total: 20,
  progressChatId: 1,
  progressMessageId: 6,
  language: "en",
  requestKey: "1:6",
  createdAt: new Date(0),
  finishedAt: null,
  ...patch,
});

const counts = (patch: Partial<RecipientCounts>): RecipientCounts => {
  const c = { pending: 0, sending: 0, sent: 0, blocked: 0, failed: 0, unconfirmed: 0, ...patch };
  return { ...c, total: c.pending + c.sending + c.sent + c.blocked + c.failed + c.unconfirmed };
};

const pace = { elapsedMs: 10_000, limitPerSecond: 25 };

describe("a broadcast's progress message", () => {
  test("copies whose worker died are unconfirmed, on a line of their own, and not counted as sent", () => {
    const view = progressView(
      broadcast({ state: "done" }),
      counts({ sent: 14, blocked: 2, failed: 1, unconfirmed: 3 }),
      t,
      pace,
    );
    expect(view.text).toBe(
      `${translate("en", "bc-done", { sent: 14, failed: 1, blocked: 2, total: 20 })}\n${translate("en", "bc-unconfirmed", { unconfirmed: 3 })}`,
    );
    expect(view.text).toContain("❔ Unconfirmed: 3");
    const fa = progressView(
      broadcast({ state: "cancelled", language: "fa" }),
      counts({ unconfirmed: 2 }),
      t,
      pace,
    );
    expect(fa.text.split("\n").at(-1)).toBe(translate("fa", "bc-unconfirmed", { unconfirmed: 2 }));
  });

  test("with none unconfirmed the totals are the locale's own, with no extra line", () => {
    const view = progressView(broadcast({ state: "done" }), counts({ sent: 18, blocked: 2 }), t, pace);
    expect(view.text).toBe(translate("en", "bc-done", { sent: 18, failed: 0, blocked: 2, total: 20 }));
  });

  test("while sending, unconfirmed copies are finished: not remaining, and part of the pace", () => {
    const running = counts({ pending: 10, unconfirmed: 10 });
    // ten finished in ten seconds: one a second, ten left
    expect(etaSeconds(running, pace.elapsedMs, pace.limitPerSecond)).toBe(10);
    const view = progressView(broadcast({}), running, t, pace);
    expect(view.text).toBe(
      `${translate("en", "bc-progress", { sent: 0, failed: 0, blocked: 0, remaining: 10, total: 20, eta: "0:10" })}\n${translate("en", "bc-unconfirmed", { unconfirmed: 10 })}`,
    );
  });
});
