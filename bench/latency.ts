import type { ChildProcess } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { CallRecord, TestUser } from "../sandbox/playground/telegram";
import { generations } from "../src/platform/db/schema";
import { requestImage, startHarness } from "../test/support/harness";
import { percentile } from "./percentile";
import { report } from "./support/report";
import { startCommand } from "./support/start-flags";

/**
 * From result to chat: the time between the media service sending a
 * `task.completed` webhook to the bot and the result reaching Telegram, for G
 * image generations (BENCH_GENERATIONS, default 200) by U users (BENCH_USERS,
 * default 100), requested through the Telegram stand-in at R per second
 * (BENCH_RATE, default 10: under the bot's global send limit, so the numbers
 * say what one result waits for, not how long a queue of them is). The bot runs
 * as npm start runs it (the built bundle, its node flags, at LOG_LEVEL info), in a
 * process of its own (web and workers, polling the stand-in); both ends are timed
 * where they are observed: the simulator's time of sending the webhook, and the
 * stand-in's time of receiving the sendPhoto (or album, document) call. The first
 * W generations (BENCH_WARM_UP, default 20, by users of their own) run before
 * the measured ones and are reported apart, as the results of a process just
 * started: its code is not compiled yet, its connections not all open.
 * Run `npm run build` first. Targets: p50 ≤ 50 ms, p99 ≤ 200 ms.
 */
const count = Number(process.env.BENCH_GENERATIONS ?? 200);
const userCount = Number(process.env.BENCH_USERS ?? 100);
const rate = Number(process.env.BENCH_RATE ?? 10);
const warmUpCount = Number(process.env.BENCH_WARM_UP ?? 20);
/** the simulated model's working time, long enough that the webhook, not a poll, finds each result */
const taskMs = Number(process.env.BENCH_TASK_MS ?? 1_000);
const targets = { p50_ms: 50, p99_ms: 200 };
/** the bot runs with npm start's node flags and environment (BENCH_NODE_FLAGS: others) */
const shipped = startCommand();
const flags = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? shipped.flags;

const resultMethods = new Set(["sendPhoto", "sendMediaGroup", "sendDocument", "sendVideo", "sendAudio"]);
const sentMessage = z.object({ message_id: z.number() });
const sentResult = z.union([sentMessage, z.array(sentMessage)]);

/** The message ids a result call created, in its chat. */
function messageIdsOf(call: CallRecord): number[] {
  if (!call.response.ok) return [];
  const parsed = sentResult.safeParse(call.response.result);
  if (!parsed.success) return [];
  return Array.isArray(parsed.data) ? parsed.data.map((m) => m.message_id) : [parsed.data.message_id];
}

const h = await startHarness({
  clockFactor: 1,
  noRuntime: true,
  env: { LOG_LEVEL: "warn", WELCOME_CREDITS: "1000" },
  telegramRules: { flood: false },
  simulator: { latencyMs: { image: taskMs, edit: taskMs, video: taskMs, dub: taskMs } },
});

async function startUsers(n: number): Promise<TestUser[]> {
  const people: TestUser[] = Array.from({ length: n }, () => h.tg.user());
  for (let i = 0; i < people.length; i += 20) {
    await Promise.all(
      people.slice(i, i + 20).map(async (u) => {
        const sent = await u.send("/start");
        await u.waitFor((m) => Boolean(m.text), { after: sent, timeoutMs: 30_000 });
      }),
    );
  }
  return people;
}

/** `n` generations by `people` in turn, one every 1/R s; then waits until they are delivered. */
async function generate(people: readonly TestUser[], n: number, label: string) {
  const t0 = Date.now();
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const wait = t0 + (i * 1000) / rate - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await requestImage(people[i % people.length]!, `${label} ${i}`).catch((err: unknown) => {
        failures.push(err instanceof Error ? err.message : String(err));
      });
    }),
  );
  const requested = n - failures.length;
  const ids = people.map((u) => u.id);
  const deadline = Date.now() + 120_000;
  let delivered = 0;
  for (;;) {
    delivered = await h.db.db.$count(
      generations,
      and(inArray(generations.userId, ids), eq(generations.state, "delivered")),
    );
    if (delivered >= requested || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ids, requested, failures, delivered };
}

/**
 * Each delivered result of these users: ms from the webhook to the result call, and
 * where that time went, as the far ends see it: the bot's look at the task, its
 * download of the output, its first Telegram call into the chat (the chat action).
 */
async function timesOf(ids: readonly number[]) {
  const rows = await h.db.db
    .select({
      taskId: generations.taskId,
      chatId: generations.chatId,
      messageIds: generations.deliveredMessageIds,
    })
    .from(generations)
    .where(and(inArray(generations.userId, [...ids]), eq(generations.state, "delivered")));

  const webhookAt = new Map<string, number>();
  let webhookRetries = 0;
  for (const d of h.sim.webhookDeliveries) {
    if (d.attempt > 1) webhookRetries++;
    const first = webhookAt.get(d.taskId);
    if (first === undefined || d.at < first) webhookAt.set(d.taskId, d.at);
  }
  // the first call that created one of a result's messages, by chat and message id
  const resultAt = new Map<string, number>();
  for (const call of h.tg.calls) {
    if (!resultMethods.has(call.method)) continue;
    const chat = String(call.params.chat_id);
    for (const id of messageIdsOf(call)) {
      const key = `${chat}/${id}`;
      if (!resultAt.has(key)) resultAt.set(key, call.at);
    }
  }

  const firstAfter = (at: number[], from: number) => at.filter((t) => t >= from).sort((a, b) => a - b)[0];
  const simAt = (path: string) => h.sim.requests.filter((r) => r.path === path).map((r) => r.at);
  const chatCallsAt = new Map<string, number[]>();
  for (const call of h.tg.calls) {
    const chat = String(call.params.chat_id);
    chatCallsAt.set(chat, [...(chatCallsAt.get(chat) ?? []), call.at]);
  }
  const phases: Record<string, number[]> = {
    webhook_to_task_lookup: [],
    lookup_to_download: [],
    download_to_first_telegram_call: [],
    first_call_to_result: [],
  };

  const times: number[] = [];
  let unmatched = 0;
  for (const row of rows) {
    const sentAt = row.taskId ? webhookAt.get(row.taskId) : undefined;
    const firstMessage = row.messageIds?.[0];
    const arrivedAt = firstMessage === undefined ? undefined : resultAt.get(`${row.chatId}/${firstMessage}`);
    if (sentAt === undefined || arrivedAt === undefined || !row.taskId) {
      unmatched++;
      continue;
    }
    times.push(arrivedAt - sentAt);
    const lookup = firstAfter(simAt(`/api/v1/tasks/${encodeURIComponent(row.taskId)}`), sentAt);
    const file = h.sim.task(row.taskId)?.images[0];
    const download = file ? firstAfter(simAt(new URL(file).pathname), sentAt) : undefined;
    const firstCall = firstAfter(chatCallsAt.get(String(row.chatId)) ?? [], sentAt);
    if (lookup === undefined || download === undefined || firstCall === undefined) continue;
    phases.webhook_to_task_lookup!.push(lookup - sentAt);
    phases.lookup_to_download!.push(download - lookup);
    phases.download_to_first_telegram_call!.push(firstCall - download);
    phases.first_call_to_result!.push(arrivedAt - firstCall);
  }
  return { sorted: times.sort((a, b) => a - b), phases, unmatched, webhookRetries };
}

let bot: ChildProcess | undefined;
try {
  bot = await h.spawnRuntime({ ...shipped.env, LOG_LEVEL: "info" }, flags, "build");
  const warmUpPeople = await startUsers(Math.min(10, Math.max(1, warmUpCount)));
  const people = await startUsers(userCount);
  const warm = warmUpCount > 0 ? await generate(warmUpPeople, warmUpCount, "warm-up") : undefined;
  const first = warm ? (await timesOf(warm.ids)).sorted : [];

  const loadBefore = loadavg()[0] ?? 0;
  // request i at i/R seconds; a user's second request comes a round (U/R s) after the first
  const { ids, requested, failures, delivered } = await generate(people, count, "latency bench");
  const { sorted, phases, unmatched, webhookRetries } = await timesOf(ids);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const result = {
    bench: "latency",
    what: "ms from the service sending task.completed to the result call reaching Telegram",
    node: process.version,
    node_flags: flags,
    // other work on the machine shows in the tail: say how busy it was
    cpus: availableParallelism(),
    load_average_1m: {
      before: Math.round(loadBefore * 100) / 100,
      after: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    },
    generations: count,
    users: userCount,
    requests_per_second: rate,
    task_ms: taskMs,
    requested,
    request_failures: failures.slice(0, 5),
    delivered,
    count: sorted.length,
    unmatched,
    webhook_retries: webhookRetries,
    latency_ms: {
      min: percentile(sorted, 0),
      p50,
      p90: percentile(sorted, 90),
      p99,
      max: percentile(sorted, 100),
      mean: sorted.length ? Math.round((sorted.reduce((a, b) => a + b, 0) / sorted.length) * 10) / 10 : 0,
    },
    p99_to_p50: p50 > 0 ? Math.round((p99 / p50) * 10) / 10 : null,
    phases_ms_p50_p99: Object.fromEntries(
      Object.entries(phases).map(([name, values]) => {
        const ordered = values.sort((a, b) => a - b);
        return [name, [percentile(ordered, 50), percentile(ordered, 99)]];
      }),
    ),
    // the process's first results, before the measured ones
    first_results_ms: {
      count: first.length,
      p50: percentile(first, 50),
      max: percentile(first, 100),
    },
    targets,
    target_met: sorted.length === count && p50 <= targets.p50_ms && p99 <= targets.p99_ms,
  };
  report("latency", result);
} finally {
  bot?.kill("SIGKILL");
  await h.stop();
}
process.exit(0);
