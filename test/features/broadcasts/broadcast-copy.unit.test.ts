import type { Api } from "grammy";
import { GrammyError, HttpError } from "grammy";
import { describe, expect, test } from "vitest";
import { copyToRecipient, type SendDeps } from "../../../src/features/broadcasts/send-step";
import type { RecipientOutcome } from "../../../src/features/broadcasts/store";
import { createLogger } from "../../../src/platform/lib/logger";

/** One recipient's copy against a store that records what it is told and an Api that fails as given. */
function rig(failure: unknown) {
  const recorded: RecipientOutcome[] = [];
  const unclaimed: number[] = [];
  const blocked: number[] = [];
  const copyMessage = async () => {
    throw failure;
  };
  const deps: SendDeps = {
    store: {
      claim: async () => ({ chatId: 1, messageIds: [10] }),
      unclaim: async (_bid, userId) => {
        unclaimed.push(userId);
      },
      record: async (_bid, _userId, outcome) => {
        recorded.push(outcome);
      },
    },
    api: { copyMessage, copyMessages: copyMessage } as unknown as Pick<Api, "copyMessage" | "copyMessages">,
    logger: createLogger("silent"),
    markBlocked: async (userId) => {
      blocked.push(userId);
    },
  };
  return { deps, recorded, unclaimed, blocked };
}

const refusal = (error_code: number, description: string, parameters?: { retry_after: number }) =>
  new GrammyError(
    "copy refused",
    { ok: false, error_code, description, ...(parameters ? { parameters } : {}) },
    "copyMessage",
    {},
  );

describe("a broadcast copy's outcome", () => {
  test("no answer (a lost connection, a timeout) is unconfirmed: the copy may have been made", async () => {
    const r = rig(new HttpError("Network request for 'copyMessage' failed!", new Error("ECONNRESET")));
    expect(await copyToRecipient("b", 7, r.deps)).toMatchObject({ kind: "unconfirmed" });
    expect(r.recorded).toEqual([
      { state: "unconfirmed", error: "Network request for 'copyMessage' failed!" },
    ]);
  });

  test("Telegram's refusal is failed, a 403 blocked, a 429 handed back", async () => {
    const refused = rig(refusal(400, "Bad Request: message to copy not found"));
    expect(await copyToRecipient("b", 7, refused.deps)).toMatchObject({ kind: "failed" });
    expect(refused.recorded.map((o) => o.state)).toEqual(["failed"]);

    const gone = rig(refusal(403, "Forbidden: bot was blocked by the user"));
    expect(await copyToRecipient("b", 7, gone.deps)).toEqual({ kind: "blocked" });
    expect(gone.recorded.map((o) => o.state)).toEqual(["blocked"]);
    expect(gone.blocked).toEqual([7]);

    const flood = rig(refusal(429, "Too Many Requests: retry after 3", { retry_after: 3 }));
    expect(await copyToRecipient("b", 7, flood.deps)).toEqual({ kind: "flood", retryAfterSeconds: 3 });
    expect(flood.recorded).toEqual([]);
    expect(flood.unclaimed).toEqual([7]);
  });
});
