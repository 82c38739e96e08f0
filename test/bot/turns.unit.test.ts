import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createTurns } from "../../src/bot/turn-wakeups";

describe("turns: wake-ups of updates waiting on a chat or user", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const woken = (p: Promise<void>) => {
    const state = { woken: false };
    void p.then(() => {
      state.woken = true;
    });
    return state;
  };

  test("an end while the waiter's claim was on its way wakes it at once, not after its pause", async () => {
    const turns = createTurns();
    const watching = turns.watch(["user:1"]);
    // the claim answered "wait" just as the update before it ended
    turns.end(["user:1"]);
    const w = woken(watching.wait(10_000));
    await vi.advanceTimersByTimeAsync(1);
    expect(w.woken).toBe(true);
    // that end is spent: the next wait waits for another
    const again = woken(watching.wait(10_000));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(again.woken).toBe(false);
    turns.end(["chat:-5", "user:1"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(again.woken).toBe(true);
    watching.close();
  });

  test("other keys' ends do not wake a waiter; its pause does", async () => {
    const turns = createTurns();
    const watching = turns.watch(["chat:-7", "user:2"]);
    const w = woken(watching.wait(100));
    turns.end(["user:3"]);
    await vi.advanceTimersByTimeAsync(99);
    expect(w.woken).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.woken).toBe(true);
    watching.close();
    // closed: an end finds nobody and wakes nothing later
    turns.end(["user:2"]);
    const later = turns.watch(["user:2"]);
    const l = woken(later.wait(50));
    await vi.advanceTimersByTimeAsync(10);
    expect(l.woken).toBe(false);
    later.close();
  });
});
