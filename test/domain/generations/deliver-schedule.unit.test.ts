import { describe, expect, test } from "vitest";
import { deliverJob } from "../../../src/domain/generations/deliver/deliver-step";
import type { TransientRetry } from "../../../src/platform/telegram/api-transformers";
import { defaultTiming } from "../../../src/runtime/settings";

/** The pauses one call's tries take when every try is refused in passing (a 5xx). */
function pausesOfOneCall(retry: TransientRetry): number {
  let total = 0;
  let wait = retry.firstDelayMs;
  for (let attempt = 1; attempt < retry.attempts; attempt++) {
    total += wait;
    wait = Math.min(wait * 2, retry.maxDelayMs);
  }
  return total;
}

/** BullMQ's exponential backoff: `backoffMs · 2^(n-1)` before the (n+1)th attempt. */
function pausesBetweenAttempts(policy: { attempts: number; backoffMs: number }): number {
  let total = 0;
  for (let made = 1; made < policy.attempts; made++) total += policy.backoffMs * 2 ** (made - 1);
  return total;
}

describe("the deliver schedule", () => {
  test("a result every send of which is refused is refunded and told within a minute of being ready", () => {
    const call = pausesOfOneCall(defaultTiming.telegramRetry);
    // each attempt sends the result once (tried again within the attempt), the last gives up;
    // the notice is one more call, which may be tried again as well
    const worstMs = deliverJob.policy.attempts * call + pausesBetweenAttempts(deliverJob.policy) + call;
    expect(worstMs).toBeLessThan(60_000);
  });
});
