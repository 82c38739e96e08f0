import { describe, expect, test } from "vitest";
import { groupCommit } from "../../../src/platform/lib/group-commit";

/** A batch runner whose round trips end only when the test lets them. */
function controlledRunner() {
  const batches: number[][] = [];
  const open: (() => void)[] = [];
  const run = async (items: readonly number[]) => {
    batches.push([...items]);
    await new Promise<void>((resolve) => open.push(resolve));
    return items.map((i) => (i < 0 ? new Error(`refused ${i}`) : i * 10));
  };
  const endOne = () => open.shift()?.();
  const settle = () => new Promise((r) => setImmediate(r));
  return { batches, run, endOne, settle, running: () => open.length };
}

describe("group commit", () => {
  test("a call alone goes out at once, by itself", async () => {
    const r = controlledRunner();
    const call = groupCommit(r.run);
    const answer = call(1);
    await r.settle();
    expect(r.batches).toEqual([[1]]);
    r.endOne();
    expect(await answer).toBe(10);
  });

  test("calls that may linger wait for one that may not, and go with it; alone, they go after lingerMs", async () => {
    const r = controlledRunner();
    // even numbers may linger
    const call = groupCommit(r.run, { lingers: (i) => i % 2 === 0, lingerMs: 40 });
    const lingering = [call(2), call(4)];
    await new Promise((res) => setTimeout(res, 10));
    expect(r.batches).toEqual([]);
    const must = call(1);
    await r.settle();
    expect(r.batches).toEqual([[2, 4, 1]]);
    r.endOne();
    expect(await Promise.all([...lingering, must])).toEqual([20, 40, 10]);
    const alone = call(6);
    await new Promise((res) => setTimeout(res, 10));
    expect(r.batches).toHaveLength(1);
    await new Promise((res) => setTimeout(res, 60));
    expect(r.batches).toEqual([[2, 4, 1], [6]]);
    r.endOne();
    expect(await alone).toBe(60);
  });

  test("calls made while the round trips are under way gather into one, in the order made", async () => {
    const r = controlledRunner();
    const call = groupCommit(r.run, { maxInFlight: 1 });
    const first = call(1);
    await r.settle();
    const later = [2, 3, 4, 5].map((i) => call(i));
    await r.settle();
    // nothing more goes out while the first round trip is under way
    expect(r.batches).toEqual([[1]]);
    r.endOne();
    await first;
    await r.settle();
    expect(r.batches).toEqual([[1], [2, 3, 4, 5]]);
    r.endOne();
    expect(await Promise.all(later)).toEqual([20, 30, 40, 50]);
    expect(r.running()).toBe(0);
  });

  test("no more batches than allowed are under way at once, and a batch never exceeds its size", async () => {
    const r = controlledRunner();
    const call = groupCommit(r.run, { maxInFlight: 2, maxBatch: 3 });
    const answers: Promise<number>[] = [];
    for (let i = 1; i <= 10; i++) {
      answers.push(call(i));
      await r.settle();
    }
    expect(r.running()).toBe(2);
    while (r.running() > 0) {
      r.endOne();
      await r.settle();
      await r.settle();
      expect(r.running()).toBeLessThanOrEqual(2);
    }
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(r.batches.every((b) => b.length <= 3)).toBe(true);
    expect(r.batches.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test("when a batch fails, its items go again alone: only the one that fails alone fails", async () => {
    const runs: number[][] = [];
    const call = groupCommit(async (items: readonly number[]) => {
      runs.push([...items]);
      // a transaction that one bad item spoils for all
      if (items.includes(13)) throw new Error("bad item 13");
      return items.map(() => undefined);
    });
    const outcomes = await Promise.allSettled([1, 13, 2].map((i) => call(i)));
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(outcomes[0]).toEqual({ status: "fulfilled", value: undefined });
    expect(runs).toEqual([[1, 13, 2], [1], [13], [2]]);
  });

  test("an Error answered for one item fails that call only; a round trip that fails for all fails them all, and the next goes on", async () => {
    let fail = false;
    const call = groupCommit(async (items: readonly number[]) => {
      if (fail) throw new Error("database unavailable");
      return items.map((i) => (i < 0 ? new Error(`refused ${i}`) : i));
    });
    const [ok, refused] = await Promise.allSettled([call(1), call(-1)]);
    expect(ok).toEqual({ status: "fulfilled", value: 1 });
    expect(refused.status).toBe("rejected");
    fail = true;
    await expect(Promise.all([call(2), call(4)])).rejects.toThrow("database unavailable");
    fail = false;
    expect(await call(3)).toBe(3);
  });
});
