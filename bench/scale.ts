import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { stageQueues } from "../src/domain/generations/stages";
import { broadcastQueue } from "../src/features/broadcasts/jobs";
import { createBroadcastStore } from "../src/features/broadcasts/store";
import { broadcasts, users } from "../src/platform/db/schema";
import { systemClock } from "../src/platform/lib/clock";
import { createQueues } from "../src/platform/queue/queues";
import { startHarness } from "../test/support/harness";
import {
  fleetWebhookSecret,
  postUpdates,
  readTrace,
  startWebFleet,
  stopWebFleet,
  textUpdate,
} from "../test/support/web-fleet";
import { report } from "./support/report";

/**
 * Scale-out on one Postgres and one Redis: W web processes (webhook mode) and
 * W workers, for W = 1 and W = 2, each run on a fresh database.
 * - updates: BENCH_USERS users send /start and then /balance, posted in
 *   update_id order over 32 connections, round-robin over the web processes
 *   (one chat's updates land on both); the bot's own trace (the update journal:
 *   who handled each update, from when to when) must show none of one chat or
 *   user at once and none out of order; throughput is compared.
 * - sends: a broadcast to BENCH_RECIPIENTS users through the workers, the bot
 *   told a global limit of L/s (BENCH_LIMIT) and the Telegram stand-in
 *   enforcing the same L (a 429 when exceeded): the limit must hold across
 *   workers (no 429; no stretch of T seconds with more than L + L·T sends, the
 *   stand-in's bucket), at about L. The busiest single second is reported too:
 *   up to 2L passes Telegram's bucket when it starts full.
 * Run `npm run bench:scale`.
 */
const userCount = Number(process.env.BENCH_USERS ?? 300);
const perUser = Number(process.env.BENCH_PER_USER ?? 10);
const recipients = Number(process.env.BENCH_RECIPIENTS ?? 600);
const limit = Number(process.env.BENCH_LIMIT ?? 30);

async function run(width: number) {
  const h = await startHarness({
    clockFactor: 1,
    noRuntime: true,
    env: {
      BOT_MODE: "webhook",
      TELEGRAM_WEBHOOK_SECRET: fleetWebhookSecret,
      TELEGRAM_SENDS_PER_SECOND: String(limit),
      LOG_LEVEL: "warn",
    },
    telegramRules: { flood: false },
  });
  const workers: ChildProcess[] = [];
  const fleet = await startWebFleet(h, width).catch(async (err: unknown) => {
    await h.stop();
    throw err;
  });
  try {
    for (let i = 0; i < width; i++) workers.push(await h.spawnRuntime({ ROLE: "worker", PORT: "0" }));

    // updates
    const people = Array.from({ length: userCount }, () => h.tg.user({ started: true, language: "en" }));
    await postUpdates(
      fleet,
      people.map((p) => textUpdate(p.info, "/start")),
      32,
    );
    const updates = [];
    for (let i = 0; i < perUser; i++) for (const p of people) updates.push(textUpdate(p.info, "/balance"));
    const t0 = performance.now();
    const statuses = await postUpdates(fleet, updates, 32);
    const seconds = (performance.now() - t0) / 1000;
    const trace = await readTrace(h, updates);

    // sends
    const admin = h.tg.user({ started: true });
    const audience = Array.from({ length: recipients }, () => h.tg.user({ started: true }));
    await h.db.db.insert(users).values(audience.map((u) => ({ id: u.id, firstName: u.info.first_name })));
    const source = await admin.send("bench scale broadcast");
    const progress = await h.tg.call("sendMessage", { chat_id: admin.id, text: "📣 Broadcast starting…" });
    if (!progress.ok) throw new Error(`the progress message was refused: ${progress.description}`);
    // the limit from here on: the bench's own message above must not take a token from the workers' first second
    h.tg.setRules({ flood: { perChat: false, perGroupPerMinute: false, globalPerSecond: limit } });
    const store = createBroadcastStore(h.db.db);
    const queues = createQueues(h.config.redis, stageQueues);
    const { broadcast } = await store.create({
      adminId: admin.id,
      requestKey: `bench-scale:${width}:${Date.now()}`,
      source: { chatId: admin.id, messageIds: [source.message_id] },
      // only the audience made here: the bench's earlier users are known to the bot too
      audience: { kind: "everyone" },
      text: "bench scale broadcast",
      language: "en",
      progress: { chatId: admin.id, messageId: (progress.result as { message_id: number }).message_id },
    });
    const b0 = Date.now();
    await broadcastQueue(queues, systemClock).tick(broadcast.id);
    for (;;) {
      const [row] = await h.db.db.select().from(broadcasts).where(eq(broadcasts.id, broadcast.id));
      if (row?.state === "done") break;
      if (Date.now() - b0 > (broadcast.total / limit) * 3_000 + 60_000)
        throw new Error("the broadcast did not finish");
      await new Promise((r) => setTimeout(r, 250));
    }
    await queues.close();
    const copies = h.tg.callsOf("copyMessage");
    const made = copies.filter((c) => c.response.ok).map((c) => c.at);
    const floods = copies.filter((c) => !c.response.ok && c.response.error_code === 429).length;
    // Telegram's limit as the stand-in models it: a bucket of L refilled at L/s, so
    // any stretch of T seconds may hold at most L + L·T sends; the worst stretch's excess
    let busiestSecond = 0;
    let excess = Number.NEGATIVE_INFINITY;
    for (let j = 0, k = 0; j < made.length; j++) {
      while (made[j]! - made[k]! >= 1000) k++;
      busiestSecond = Math.max(busiestSecond, j - k + 1);
      for (let i = 0; i <= j; i++) {
        const allowed = limit + (limit * (made[j]! - made[i]!)) / 1000;
        excess = Math.max(excess, j - i + 1 - allowed);
      }
    }
    const span = ((made.at(-1) ?? 0) - (made[0] ?? 0)) / 1000;
    return {
      web_processes: width,
      workers: width,
      updates: {
        count: updates.length,
        refused: statuses.filter((s) => s !== 200).length,
        seconds: Number(seconds.toFixed(2)),
        per_second: Math.round(updates.length / seconds),
        trace,
      },
      sends: {
        recipients: broadcast.total,
        copies: made.length,
        limit_per_second: limit,
        rate_per_second: made.length > 1 ? Number(((made.length - 1) / span).toFixed(2)) : 0,
        busiest_second: busiestSecond,
        worst_excess_over_limit: Number(Math.max(0, excess).toFixed(2)),
        flood_429s: floods,
      },
    };
  } finally {
    for (const w of workers) w.kill("SIGKILL");
    await stopWebFleet(fleet);
    await h.stop();
  }
}

const one = await run(1);
const two = await run(2);
const ordered = (r: typeof one) =>
  r.updates.trace.concurrent === 0 &&
  r.updates.trace.outOfOrder === 0 &&
  r.updates.trace.handled === r.updates.count;
// a send's timestamp is when the stand-in saw it: one send of slack for that
const limited = (r: typeof one) => r.sends.flood_429s === 0 && r.sends.worst_excess_over_limit <= 1;
report("scale", {
  bench: "scale",
  node: process.version,
  runs: [one, two],
  updates_speedup_2_over_1: Number((two.updates.per_second / one.updates.per_second).toFixed(2)),
  sends_rate_2_over_1: Number((two.sends.rate_per_second / one.sends.rate_per_second).toFixed(2)),
  ordered_per_chat: ordered(one) && ordered(two),
  send_limit_held: limited(one) && limited(two),
  processes_handling_updates_in_2_plus_2: two.updates.trace.processes,
});
process.exit(0);
