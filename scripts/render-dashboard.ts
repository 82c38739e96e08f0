import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { TestUser } from "../sandbox/playground/telegram";
import { notAtRest } from "../src/domain/generations/states";
import { projectPath } from "../src/platform/lib/project-root";
import {
  confirmOffer,
  eventually,
  freePort,
  type Harness,
  startedUser,
  startHarness,
} from "../test/support/harness";
import { alertQueries, dashboardQueries, type MonitoringQuery } from "../test/support/monitoring-files";
import { invoiceFor } from "../test/support/payments";

/**
 * The dashboard's figures from a real run, without Grafana: the bot's web role
 * (in this process) and worker role (a child process) on the harness (Postgres,
 * Redis, the Telegram stand-in and the media service simulator), some traffic
 * (generations, a failed one, a service outage, a Telegram 429, a payment, a
 * broadcast), and a temporary Prometheus (PROMETHEUS_BIN, default `prometheus`)
 * scraping both every second with the alert rules loaded. Then every panel's
 * query is evaluated through Prometheus's HTTP API, over the whole run, and
 * printed with its figures, and the alerts with their state.
 *   npm run monitoring:render [-- --json]
 */
const asJson = process.argv.includes("--json");
const prometheusBin = process.env.PROMETHEUS_BIN ?? "prometheus";
/** the stand-in's first user: the admin (a broadcast) */
const adminId = 5_000_000_001;

const say = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sample = z.tuple([z.number(), z.string()]);
const queryAnswer = z.object({
  status: z.literal("success"),
  data: z.discriminatedUnion("resultType", [
    z.object({
      resultType: z.literal("vector"),
      result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: sample })),
    }),
    z.object({ resultType: z.literal("scalar"), result: sample }),
  ]),
});
const alertsAnswer = z.object({
  data: z.object({
    alerts: z.array(
      z.object({ labels: z.record(z.string(), z.string()), state: z.string(), value: z.string() }),
    ),
  }),
});

/** Prometheus on a temporary directory, scraping the two roles every second. */
async function startPrometheus(targets: { web: string; worker: string }) {
  const dir = await mkdtemp(join(tmpdir(), "msb-prometheus-"));
  const port = await freePort();
  const job = (role: string, target: string) =>
    `  - job_name: ${role}\n    static_configs:\n      - targets: ["${target}"]\n        labels: { role: ${role} }\n`;
  await writeFile(
    join(dir, "prometheus.yml"),
    "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" +
      `rule_files:\n  - ${JSON.stringify(projectPath("deploy", "monitoring", "alerts.yml"))}\n` +
      `scrape_configs:\n${job("web", targets.web)}${job("worker", targets.worker)}`,
  );
  const child: ChildProcess = spawn(
    prometheusBin,
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || i > 100) throw new Error(`prometheus did not start (${prometheusBin})`);
    await sleep(100);
  }
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `/image <prompt>`, Confirm, and the wait for that generation to come to rest. */
async function image(h: Harness, user: TestUser, prompt: string) {
  const sent = await user.send(`/image ${prompt}`);
  const offer = await user.waitFor(
    (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
    {
      after: sent,
    },
  );
  await user.press(/✅/, { message: offer });
  return eventually(async () => {
    const mine = await h.runtime.generations.recent(user.id, 5);
    const g = mine.find((r) => r.params.prompt === prompt);
    return g && !notAtRest.includes(g.state) ? g : undefined;
  }, 60_000);
}

/**
 * Generations (one failed by the service, one during an outage), a Telegram 429
 * and a payment. A counter's series appears with its first increment, which
 * rate() and increase() cannot see: the first round makes the series, the second
 * is what the panels show.
 */
async function driveTraffic(h: Harness, users: TestUser[], round: number) {
  say(
    `traffic, round ${round}: 6 images, one the service fails, one during an outage (503), a 429, a payment`,
  );
  for (const user of users) await image(h, user, `a lighthouse at dusk ${round}`);
  for (const user of users) await image(h, user, `a second lighthouse ${round}`);
  h.sim.faults.nextTask({ fail: true });
  await image(h, users[0]!, `a failing storm ${round}`);
  h.sim.faults.nextCreate({ status: 503, times: 1000 });
  const outage = image(h, users[1]!, `a storm during the outage ${round}`);
  await sleep(1_000);
  h.sim.faults.clear();
  await outage;
  h.tg.failNext("sendMessage", { code: 429, description: "Too Many Requests: retry after 1", retryAfter: 1 });
  await users[2]!.send("/balance");
  await users[0]!.pay(await invoiceFor(users[0]!, 50));
}

/** A broadcast to everyone, still sending (2 copies a second) when the panels are read. */
async function startBroadcast(admin: TestUser) {
  say("traffic: a broadcast to every user");
  const asked = await admin.send("/broadcast");
  await admin.waitFor((m) => Boolean(m.text), { after: asked });
  const news = await admin.send("News: video is here");
  const pick = await admin.waitFor((m) => Boolean(m.reply_markup?.inline_keyboard.flat().length), {
    after: news,
  });
  await admin.press(/^Everyone/, { message: pick });
  await confirmOffer(admin);
}

function formatValue(value: number, unit: string | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  const n = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(3)).toString());
  switch (unit) {
    case "s":
      return value < 1 ? `${n(value * 1000)} ms` : `${n(value)} s`;
    case "percentunit":
      return `${n(value * 100)} %`;
    case "bytes":
      return `${n(value / 1024 / 1024)} MiB`;
    case "ops":
    case "reqps":
      return `${n(value)}/s`;
    default:
      return n(value);
  }
}

const legendOf = (q: MonitoringQuery, labels: Record<string, string>) =>
  q.legend
    ? q.legend.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? "")
    : Object.entries(labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(",") || "value";

const h = await startHarness({
  // 2 sends a second: the broadcast is still sending when the panels are read
  env: { ROLE: "web", ADMIN_IDS: String(adminId), LOG_LEVEL: "silent", TELEGRAM_SENDS_PER_SECOND: "2" },
});
let prometheus: Awaited<ReturnType<typeof startPrometheus>> | undefined;
try {
  const workerPort = await freePort();
  await h.spawnRuntime({ ROLE: "worker", PORT: String(workerPort) });
  const web = new URL(h.runtime.url).host;
  prometheus = await startPrometheus({ web, worker: `127.0.0.1:${workerPort}` });
  const started = Date.now();
  say(`prometheus ${prometheus.url} scraping web ${web} and worker 127.0.0.1:${workerPort} every second`);
  // Prometheus hands its scrapers their targets some seconds after it starts
  await eventually(async () => {
    const up = queryAnswer.parse(await (await fetch(`${prometheus?.url}/api/v1/query?query=sum(up)`)).json());
    return up.data.resultType === "vector" && Number(up.data.result[0]?.value[1]) === 2 ? true : undefined;
  }, 30_000);
  const admin = await startedUser(h);
  const users = [await startedUser(h), await startedUser(h), await startedUser(h, "fa")];
  await driveTraffic(h, users, 1);
  // the broadcast's audience besides them
  await Promise.all(Array.from({ length: 20 }, () => startedUser(h)));
  await driveTraffic(h, users, 2);
  await startBroadcast(admin);
  // the last scrapes, and a ledger audit round (every 10 minutes of the clock: 6 s here)
  await sleep(8_000);
  const window = `${Math.ceil((Date.now() - started) / 1000)}s`;
  say(`evaluating every panel over the run (${window})`);

  const rows: Array<{ panel: string; figures: Record<string, string> }> = [];
  for (const q of dashboardQueries()) {
    const expr = q.expr.replaceAll("$__rate_interval", window).replaceAll("$__range", window);
    const res = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const answer = queryAnswer.parse(await res.json());
    const figures: Record<string, string> = {};
    const series =
      answer.data.resultType === "scalar"
        ? [{ metric: {}, value: answer.data.result }]
        : [...answer.data.result].sort((a, b) => Number(b.value[1]) - Number(a.value[1]));
    for (const s of series) figures[legendOf(q, s.metric)] = formatValue(Number(s.value[1]), q.unit);
    const last = rows.at(-1);
    if (last?.panel === q.title) Object.assign(last.figures, figures);
    else rows.push({ panel: q.title, figures });
  }
  const alerts = alertsAnswer.parse(await (await fetch(`${prometheus.url}/api/v1/alerts`)).json()).data
    .alerts;

  if (asJson) {
    process.stdout.write(`${JSON.stringify({ window, panels: rows, alerts }, null, 2)}\n`);
  } else {
    const width = Math.max(...rows.map((r) => r.panel.length));
    for (const r of rows) {
      const entries = Object.entries(r.figures);
      const shown = entries.slice(0, 8).map(([k, v]) => `${k} ${v}`);
      if (entries.length > 8) shown.push(`… ${entries.length - 8} more`);
      process.stdout.write(
        `${r.panel.padEnd(width)}  ${shown.length > 0 ? shown.join(" · ") : "(no data)"}\n`,
      );
    }
    const rules = alertQueries().map((a) => a.title);
    const states = rules.map((name) => {
      const mine = alerts.filter((a) => a.labels.alertname === name);
      return `${name} ${mine.length > 0 ? mine.map((a) => a.state).join("/") : "inactive"}`;
    });
    process.stdout.write(`${"Alerts".padEnd(width)}  ${states.join(" · ")}\n`);
  }
} finally {
  await prometheus?.stop();
  await h.stop();
}
// the worker's child and the harness's connections are closed; a timer of a library may linger
process.exit(0);
