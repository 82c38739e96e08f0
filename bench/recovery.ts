import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { TestUser } from "../sandbox/playground/telegram";
import { rowsOf } from "../src/platform/db/raw-rows";
import { defaultTiming } from "../src/runtime/settings";
import { eventually, type Harness, requestImage, startedUser, startHarness } from "../test/support/harness";
import { report } from "./support/report";

/**
 * A crash with work in every state: the whole bot (both roles in one process, on
 * the production timing) is killed with SIGKILL while generations are queued,
 * being submitted (their create held by the service), at the service, completed,
 * being delivered (their upload held by Telegram) and delivered; it restarts
 * 1.6 s later, with the service finishing each task 5 s after it is created and
 * sending each webhook once (those of the creates in flight at the kill are lost).
 * Prints, from the restart, when each generation first moved on and when all
 * were terminal.
 *
 *   npm run bench:recovery
 */
const serviceMs = 5_000;
const restartAfterMs = 1_600;
const terminal = new Set(["delivered", "failed", "rejected", "expired"]);

interface Row {
  id: string;
  state: string;
}

async function states(h: Harness): Promise<Map<string, string>> {
  const result = await h.db.db.execute(sql`select id, state from generations`);
  return new Map(rowsOf<Row>(result).map((r) => [r.id, r.state]));
}

async function countIn(h: Harness, state: string): Promise<number> {
  return [...(await states(h)).values()].filter((s) => s === state).length;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => ((await probe()) ? true : undefined), timeoutMs).catch(() => {
    throw new Error(`recovery bench: ${what} not reached in ${timeoutMs} ms`);
  });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

const h = await startHarness({
  noRuntime: true,
  clockFactor: 1,
  // the production intervals, leases and grace periods: what bounds recovery in a deployment
  timing: { ...defaultTiming },
  telegramRules: {},
  simulator: {
    latencyMs: { image: serviceMs, edit: serviceMs, video: serviceMs, dub: serviceMs },
    // a webhook is sent once (the document promises no retries): one sent while the bot is down is lost
    webhookRetryDelaysMs: [],
  },
  env: { WELCOME_CREDITS: "100" },
});
try {
  let bot = await h.spawnRuntime({});
  const users = async (n: number) => Promise.all(Array.from({ length: n }, () => startedUser(h)));
  const request = (group: TestUser[], label: string) =>
    Promise.all(group.map((u, i) => requestImage(u, `${label} ${i}`)));

  // delivered
  const delivered = await users(4);
  await request(delivered, "delivered");
  await until("4 delivered", async () => (await countIn(h, "delivered")) >= 4);

  // completed at the service, their uploads held by Telegram: delivering (the send concurrency) and completed
  const sends = h.tg.hold("sendPhoto");
  const finished = await users(10);
  await request(finished, "finished");
  await until("10 completed or delivering", async () => {
    const s = [...(await states(h)).values()];
    return s.filter((x) => x === "completed" || x === "delivering").length >= 10;
  });

  // at the service
  const atService = await users(8);
  await request(atService, "at the service");
  await until("8 pending", async () => (await countIn(h, "pending")) >= 8);

  // being submitted (the service holds their creates past the kill, then registers them, and their
  // webhooks are lost: sent while nothing listened) and queued behind them
  h.sim.faults.nextCreate({ delayMs: 4_000, times: 4 });
  for (let i = 0; i < 4; i++) h.sim.faults.nextTask({ webhook: "drop" });
  const submitting = await users(12);
  await request(submitting, "queued");
  await until("4 submitting and 8 queued", async () => {
    const s = [...(await states(h)).values()];
    return s.filter((x) => x === "submitting").length >= 4 && s.filter((x) => x === "queued").length >= 8;
  });

  const before = await states(h);
  const atKill: Record<string, number> = {};
  for (const s of before.values()) atKill[s] = (atKill[s] ?? 0) + 1;
  await kill(bot);
  const killedAt = performance.now();
  // Telegram serves the uploads the dead process had sent
  sends.release();
  await new Promise((r) => setTimeout(r, restartAfterMs));
  bot = await h.spawnRuntime({});
  const readyAt = performance.now();

  const movedAt = new Map<string, number>();
  const terminalAt = new Map<string, number>();
  const deadline = readyAt + 10 * 60_000;
  while (terminalAt.size < before.size && performance.now() < deadline) {
    const now = await states(h);
    const t = performance.now();
    for (const [id, state] of now) {
      const was = before.get(id);
      if (!movedAt.has(id) && (state !== was || terminal.has(state))) movedAt.set(id, t);
      if (!terminalAt.has(id) && terminal.has(state)) terminalAt.set(id, t);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (at: number | undefined) =>
    at === undefined ? null : Number(((at - readyAt) / 1000).toFixed(1));
  /** the latest second at which one of `ids` got there, or null when one never did */
  const latest = (ids: string[], at: Map<string, number>) =>
    ids.every((id) => at.has(id)) ? seconds(Math.max(...ids.map((id) => at.get(id) ?? 0))) : null;
  const byState = Object.fromEntries(
    [...new Set(before.values())].map((state) => {
      const ids = [...before].filter(([, s]) => s === state).map(([id]) => id);
      return [
        state,
        { count: ids.length, moved_s_max: latest(ids, movedAt), terminal_s_max: latest(ids, terminalAt) },
      ];
    }),
  );
  const all = [...before.keys()];
  const final = await states(h);
  const photosPerUser = [...delivered, ...finished, ...atService, ...submitting].map(
    (u) => u.messages().filter((m) => m.photo).length,
  );
  const ledger = await h.db.db.execute(sql`select coalesce(sum(held), 0)::int as held from credit_accounts`);
  report("recovery", {
    generations: before.size,
    at_kill: atKill,
    restart_after_s: restartAfterMs / 1000,
    service_answers_in_s: serviceMs / 1000,
    restart_took_s: Number(((readyAt - killedAt) / 1000).toFixed(1)),
    // from the restarted process being ready
    all_moved_on_s: latest(all, movedAt),
    all_terminal_s: latest(all, terminalAt),
    by_state_at_kill: byState,
    final_states: Object.fromEntries(
      [...new Set(final.values())].map((s) => [s, [...final.values()].filter((x) => x === s).length]),
    ),
    users_without_a_picture: photosPerUser.filter((n) => n === 0).length,
    users_with_two_or_more: photosPerUser.filter((n) => n > 1).length,
    credits_still_held: rowsOf<{ held: number }>(ledger)[0]?.held ?? null,
    targets: { all_moved_on_s: 30, all_terminal_s: 60 },
  });
  await kill(bot);
} finally {
  await h.stop();
}
process.exit(0);
