import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { stageQueues } from "../src/domain/generations/stages";
import { broadcastQueue } from "../src/features/broadcasts/jobs";
import { createBroadcastStore } from "../src/features/broadcasts/store";
import { broadcasts, users } from "../src/platform/db/schema";
import { systemClock } from "../src/platform/lib/clock";
import { createQueues } from "../src/platform/queue/queues";
import { startHarness } from "../test/support/harness";
import { report } from "./support/report";

/**
 * A broadcast to N users (BENCH_N, default 10,000) through the worker role in
 * a process of its own, against the Telegram stand-in enforcing a global limit
 * of L messages/s (BENCH_LIMIT, default 30); the bot is told the same limit.
 * Prints the achieved copy rate as a share of L (first to last copy), the 429s
 * met, duplicate copies, and the worker's resident memory before and at peak.
 * Target: rate ≥ 0.95 × L, no duplicates, RSS growth under 50 MB.
 */
const n = Number(process.env.BENCH_N ?? 10_000);
const limit = Number(process.env.BENCH_LIMIT ?? 30);
const text = "bench broadcast";

function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

const h = await startHarness({
  clockFactor: 1,
  noRuntime: true,
  env: { TELEGRAM_SENDS_PER_SECOND: String(limit), LOG_LEVEL: "warn" },
  telegramRules: {
    flood: { perChat: { perSecond: 1, burst: 3 }, perGroupPerMinute: 20, globalPerSecond: limit },
  },
});
let worker: ChildProcess | undefined;
try {
  const admin = h.tg.user();
  const people = Array.from({ length: n }, () => h.tg.user({ started: true }));
  for (let i = 0; i < people.length; i += 1000) {
    await h.db.db
      .insert(users)
      .values(people.slice(i, i + 1000).map((u) => ({ id: u.id, firstName: u.info.first_name })));
  }
  const source = await admin.send(text);
  const progress = await h.tg.call("sendMessage", { chat_id: admin.id, text: "📣 Broadcast starting…" });
  if (!progress.ok) throw new Error(`the progress message was refused: ${progress.description}`);
  const progressId = (progress.result as { message_id: number }).message_id;

  worker = await h.spawnRuntime({ ROLE: "worker", PORT: "0" });
  const pid = worker.pid!;
  await new Promise((r) => setTimeout(r, 2_000));
  const rssBefore = rssMb(pid, "VmRSS");

  const store = createBroadcastStore(h.db.db);
  const queues = createQueues(h.config.redis, stageQueues);
  const { broadcast } = await store.create({
    adminId: admin.id,
    requestKey: `bench:${Date.now()}`,
    source: { chatId: admin.id, messageIds: [source.message_id] },
    audience: { kind: "everyone" },
    text,
    language: "en",
    progress: { chatId: admin.id, messageId: progressId },
  });
  const t0 = Date.now();
  await broadcastQueue(queues, systemClock).tick(broadcast.id);
  let peakRss = 0;
  for (;;) {
    peakRss = Math.max(peakRss, rssMb(pid, "VmRSS"));
    const [row] = await h.db.db.select().from(broadcasts).where(eq(broadcasts.id, broadcast.id));
    if (row?.state === "done") break;
    if (Date.now() - t0 > (n / limit) * 3_000 + 60_000)
      throw new Error("the broadcast did not finish in time");
    await new Promise((r) => setTimeout(r, 250));
  }
  peakRss = Math.max(peakRss, rssMb(pid, "VmHWM"));
  await queues.close();

  const copies = h.tg.callsOf("copyMessage");
  const made = copies.filter((c) => c.response.ok);
  const floods = copies.filter((c) => !c.response.ok && c.response.error_code === 429).length;
  const firstAt = made[0]?.at ?? 0;
  const lastAt = made[made.length - 1]?.at ?? 0;
  const rate = made.length > 1 ? (made.length - 1) / ((lastAt - firstAt) / 1000) : 0;
  let duplicates = 0;
  for (const u of [admin, ...people]) {
    const got = u.messages().filter((m) => m.text === text).length;
    if (got > 1) duplicates += got - 1;
  }
  const result = {
    bench: "broadcast",
    recipients: broadcast.total,
    limit_per_second: limit,
    copies: made.length,
    seconds: Math.round((lastAt - firstAt) / 100) / 10,
    rate_per_second: Math.round(rate * 100) / 100,
    rate_of_limit: Math.round((rate / limit) * 1000) / 1000,
    flood_429s: floods,
    duplicates,
    worker_rss_mb: {
      before: Math.round(rssBefore),
      peak: Math.round(peakRss),
      growth: Math.round(peakRss - rssBefore),
    },
    target_met: rate >= 0.95 * limit && duplicates === 0 && peakRss - rssBefore < 50,
  };
  report("broadcast", result);
} finally {
  worker?.kill("SIGKILL");
  await h.stop();
}
process.exit(0);
