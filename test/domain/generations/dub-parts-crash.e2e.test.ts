import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { collectStats } from "../../../src/features/admin";
import { ledgerEntries } from "../../../src/platform/db/schema";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import { speechLike } from "../../support/media-files";
import { byData, says } from "../../support/messages";

/**
 * A dub in parts survives its worker: the worker is a real process, killed
 * with SIGKILL at a point of each phase (the parts just cut and kept, a part's
 * task created at the service but not yet recorded, the dubbed parts joined
 * but the generation not yet completed, the result being sent), and a new
 * worker takes over. The web role runs in this process.
 */
const prices = createPrices(loadPriceTable());
const quoted = (() => {
  const q = quote(prices, { operation: "dub", durationSeconds: 420 });
  if (!q.ok) throw new Error("no dubbing price");
  return q.credits;
})();
const isPanel = (m: BotMessage) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(byData("cv:ok"));

describe("a dub in parts killed in each phase", () => {
  let h: Harness;
  let dir: string;
  let source: string;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-crash-"));
    source = join(dir, "talk.mp3");
    await speechLike(source, 420);
    h = await startHarness({ env: { ROLE: "web", WELCOME_CREDITS: "0" } });
  }, 60_000);

  afterAll(async () => {
    worker?.kill("SIGKILL");
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function askForDub(user: TestUser) {
    await h.runtime.ledger.grant({ userId: user.id, amount: 300, key: `dub-crash-${user.id}` });
    await user.send("/dub");
    await user.waitFor(says("Send the audio or video to dub"));
    await user.sendAudio({ path: source, duration: 420 });
    const panel = await user.waitFor((m) => isPanel(m) && says("dubbed in 2 parts")(m));
    await user.press(byData("cv:ok"), { message: panel });
    return eventually(async () => (await h.runtime.generations.recent(user.id, 1))[0]);
  }

  async function stop(child: ChildProcess) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  const tasksOf = (gid: string) => h.sim.tasks().filter((t) => t.metadata?.gid === gid);

  async function charges(holdKey: string) {
    return h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, "charge"), eq(ledgerEntries.key, holdKey)));
  }

  test.each([
    ["dub:parts-kept", "splitting: the parts cut and kept, the generation still queued"],
    ["dub:part-created", "parts pending: a part's task created at the service, not yet recorded"],
    ["dub:joined", "joining: the dubbed parts joined into the result, not yet completed"],
    ["deliver:sending", "delivering: the joined result about to be sent"],
  ])(
    "killed at %s (%s): completed with one task per part and one charge",
    async (point) => {
      const user = h.tg.user({ language: "en", started: true });
      // the dying worker alone: another would take its jobs, and it would never reach the point
      if (worker) await stop(worker);
      worker = undefined;
      const dying = await h.spawnRuntime({ ROLE: "worker", PORT: "0", MSB_FAULT_POINT: point });
      const died = new Promise((resolve) => dying.once("exit", resolve));
      const g = await askForDub(user);
      await died;
      worker ??= await h.spawnWorker();
      await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 90_000 });
      const done = await generationIn(h, user.id, "delivered", 30_000);
      expect(tasksOf(g.id)).toHaveLength(2);
      expect(done.charged).toBe(quoted);
      expect(await charges(done.holdKey)).toHaveLength(1);
      expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 300 - quoted, held: 0 });
      expect(await h.runtime.ledger.audit()).toEqual([]);
    },
    150_000,
  );

  test("a part the service fails twice: the user is told, nothing is charged, the part it dubbed is our cost", async () => {
    worker ??= await h.spawnWorker();
    const user = h.tg.user({ language: "en", started: true });
    const before = await collectStats(h.db.db);
    // part 1 is dubbed; part 2 fails, and fails again when sent once more
    h.sim.faults.nextTask({ operation: "dub" });
    h.sim.faults.nextTask({ operation: "dub", fail: { code: "dubbing_failed", message: "no speech found" } });
    h.sim.faults.nextTask({ operation: "dub", fail: { code: "dubbing_failed", message: "no speech found" } });
    const g = await askForDub(user);
    await user.waitFor(says("Part 2 of your file could not be dubbed"), { timeoutMs: 90_000 });
    const failed = await generationIn(h, user.id, "failed");
    expect(failed.error).toMatchObject({ reason: "part_failed", part: 2 });
    // three tasks: part 1, and part 2 twice
    expect(tasksOf(g.id)).toHaveLength(3);
    expect(failed.charged ?? 0).toBe(0);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 300, held: 0 });
    expect(await h.runtime.ledger.audit()).toEqual([]);
    // what the service billed for part 1 is in the margin
    const part1 = tasksOf(g.id).find((t) => t.metadata?.part === "1/2" && t.status === "completed");
    expect(part1?.credits_reserved).toBeGreaterThan(0);
    expect(failed.serviceCredits).toBe(part1?.credits_reserved);
    const after = await collectStats(h.db.db);
    expect(after.service.spent - before.service.spent).toBe(part1?.credits_reserved);
    expect(after.margin - before.margin).toBe(-(part1?.credits_reserved ?? 0));
    h.sim.faults.clear();
  }, 150_000);
});
