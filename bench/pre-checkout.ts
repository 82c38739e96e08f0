import type { ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import type { BotMessage, TestUser } from "../sandbox/playground/telegram";
import { payments } from "../src/platform/db/schema";
import { startHarness } from "../test/support/harness";
import { percentile } from "./percentile";
import { report } from "./support/report";

/**
 * Pre-checkout answer time under load: Q pre_checkout_queries (BENCH_QUERIES,
 * default 500) from U users (BENCH_USERS, default 100), all at once, through
 * the bot's web role in a process of its own (polling the Telegram stand-in)
 * while other users keep sending commands and each approved checkout becomes a
 * successful_payment to record and answer. The time is from the query's
 * arrival at the stand-in to the bot's answer. Target: p99 well under
 * Telegram's 10 s (here: under 5 s, half of it), every query answered, every approved
 * payment granted once.
 */
const queries = Number(process.env.BENCH_QUERIES ?? 500);
const buyers = Number(process.env.BENCH_USERS ?? 100);
const chatty = 30;

const h = await startHarness({
  clockFactor: 1,
  noRuntime: true,
  env: { ROLE: "worker", LOG_LEVEL: "warn" },
  telegramRules: { flood: false },
});
let web: ChildProcess | undefined;

/** /start, /buy, the cheapest pack: the invoice. */
async function invoiceOf(user: TestUser): Promise<BotMessage> {
  const started = await user.send("/start");
  await user.waitFor((m) => Boolean(m.text), { after: started, timeoutMs: 30_000 });
  const sent = await user.send("/buy");
  const packs = await user.waitFor((m) => Boolean(m.reply_markup), { after: sent, timeoutMs: 30_000 });
  await user.press(/⭐$/, { message: packs });
  return user.waitFor((m) => Boolean(m.invoice), { after: packs, timeoutMs: 30_000 });
}

try {
  await h.startRuntime();
  web = await h.spawnRuntime({ ROLE: "web" });
  const people = Array.from({ length: buyers }, () => h.tg.user());
  const invoices: BotMessage[] = [];
  for (let i = 0; i < people.length; i += 20) {
    invoices.push(...(await Promise.all(people.slice(i, i + 20).map(invoiceOf))));
  }
  const others = Array.from({ length: chatty }, () => h.tg.user());
  await Promise.all(others.map((u) => u.send("/start")));

  // other traffic while the checkouts run: commands from other users, ~100 updates/s
  let running = true;
  let background = 0;
  const traffic = (async () => {
    const commands = ["/balance", "/help", "/terms", "/buy"];
    while (running) {
      for (const u of others) {
        await u.send(commands[background++ % commands.length]!);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  await new Promise((r) => setTimeout(r, 1_000));

  const times: number[] = [];
  let declined = 0;
  let timedOut = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: queries }, async (_, i) => {
      const user = people[i % people.length]!;
      const started = performance.now();
      const outcome = await user.pay(invoices[i % invoices.length]!);
      if (outcome.ok) times.push(performance.now() - started);
      else if (outcome.reason === "timeout") timedOut++;
      else declined++;
    }),
  );
  const wallSeconds = (Date.now() - t0) / 1000;
  running = false;
  await traffic;

  // every approved checkout granted once (the receipts may still be on their way)
  const deadline = Date.now() + 60_000;
  let recorded = 0;
  for (;;) {
    recorded = 0;
    for (const u of people) recorded += await h.db.db.$count(payments, eq(payments.userId, u.id));
    if (recorded >= times.length || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const audit = await h.runtime.ledger.audit();

  const sorted = [...times].sort((a, b) => a - b);
  const result = {
    bench: "pre-checkout",
    queries,
    users: buyers,
    background_updates: background,
    approved: times.length,
    declined,
    timed_out: timedOut,
    answer_ms: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    },
    wall_seconds: Math.round(wallSeconds * 10) / 10,
    payments_recorded: recorded,
    ledger_audit_problems: audit.length,
    target_met:
      times.length === queries &&
      percentile(sorted, 99) < 5_000 &&
      recorded === queries &&
      audit.length === 0,
  };
  report("pre-checkout", result);
} finally {
  web?.kill("SIGKILL");
  await h.stop();
}
process.exit(0);
