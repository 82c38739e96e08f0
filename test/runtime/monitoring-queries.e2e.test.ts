import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  eventually,
  freePort,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";
import {
  alertQueries,
  botScrapeJobs,
  composePorts,
  dashboardQueries,
  type MonitoringQuery,
} from "../support/monitoring-files";
import { invoiceFor } from "../support/payments";

/** Words of PromQL that are not metric names (functions are told apart by the `(` after them). */
const keywords = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "offset",
  "bool",
  "inf",
  "nan",
]);
/** Series Prometheus makes itself for each target. */
const prometheusOwn = new Set(["up", "scrape_duration_seconds", "scrape_samples_scraped"]);

/**
 * The metric names a PromQL expression reads: identifiers outside strings, label
 * matchers, ranges and label lists, that are neither a function nor a keyword.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/#[^\n]*/g, " ")
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\$\w+/g, " ");
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.:])[A-Za-z_:][\w:]*/g)) {
    const rest = bare.slice(m.index + m[0].length);
    if (/^\s*\(/.test(rest) || keywords.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return [...names];
}

/** The series names a process exports, from its `# TYPE` lines (a histogram's _bucket, _sum and _count too). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!name || !type) continue;
    names.add(name);
    if (type === "histogram") for (const s of ["_bucket", "_sum", "_count"]) names.add(name + s);
    if (type === "summary") for (const s of ["_sum", "_count"]) names.add(name + s);
  }
  return names;
}

/** The roles a query is scraped from: the one its selector names, or any. */
function rolesOf(q: MonitoringQuery, roles: readonly string[]): string[] {
  const named = [...q.expr.matchAll(/\b(?:role|job)\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
  const only = roles.filter((r) => named.includes(r));
  return only.length > 0 ? only : [...roles];
}

test("metric names are read from PromQL as Prometheus would", () => {
  expect(
    metricNames(
      'histogram_quantile(0.95, sum by (le, call) (rate(a_bucket{call="getTask",x=~"y|z"}[$__rate_interval])))',
    ),
  ).toEqual(["a_bucket"]);
  expect(
    metricNames(
      'time() - max(b_seconds) > 1800 and on() max(c{state="pending"}) > 0 or count(d unless d offset 30m) > 0 # e',
    ),
  ).toEqual(["b_seconds", "c", "d"]);
  expect(metricNames("(sum(increase(f_total[1h])) or vector(0)) - sum without (instance) (g) * 60")).toEqual([
    "f_total",
    "g",
  ]);
});

test("Prometheus scrapes each role where docker-compose.yml has it listen", () => {
  const ports = composePorts();
  expect(botScrapeJobs()).toEqual([
    { role: "web", port: ports.web },
    { role: "worker", port: ports.worker },
  ]);
});

describe("every metric a dashboard panel or an alert reads is exported by the role it is scraped from", () => {
  let h: Harness;
  const exported: Record<string, Set<string>> = {};
  const urls: Record<"web" | "worker", string> = { web: "", worker: "" };
  const scrape = async (role: "web" | "worker") => (await fetch(`${urls[role]}/metrics`)).text();

  beforeAll(async () => {
    // the web role in this process, the worker in its own, as compose runs them
    h = await startHarness({ env: { ROLE: "web" } });
    const workerPort = await freePort();
    await h.spawnRuntime({ ROLE: "worker", PORT: String(workerPort) });
    urls.web = h.runtime.url;
    urls.worker = `http://127.0.0.1:${workerPort}`;
    for (const role of ["web", "worker"] as const) exported[role] = exportedNames(await scrape(role));
  }, 60_000);
  afterAll(async () => h?.stop());

  const queries = [...dashboardQueries(), ...alertQueries()];

  test("the files hold the panels and alerts", () => {
    expect(queries.filter((q) => q.kind === "panel").length).toBeGreaterThan(20);
    expect(alertQueries().map((q) => q.title)).toEqual(
      expect.arrayContaining([
        "MsbQueueLagging",
        "MsbDeliveryGaveUp",
        "MsbMediaServiceErrors",
        "MsbMediaWebhooksMissing",
        "MsbLedgerAuditViolations",
        "MsbNotReady",
      ]),
    );
  });

  test.each(queries.map((q) => [`${q.kind} "${q.title}": ${q.expr.replace(/\s+/g, " ")}`, q] as const))(
    "%s",
    (_name, q) => {
      const names = metricNames(q.expr);
      expect(names.length, "a query reads at least one metric").toBeGreaterThan(0);
      const roles = rolesOf(q, Object.keys(exported));
      const missing = names.filter(
        (name) => !prometheusOwn.has(name) && !roles.some((role) => exported[role]?.has(name)),
      );
      expect(missing, `not exported by ${roles.join(" or ")}`).toEqual([]);
    },
  );

  test("the figures the panels read move: updates, a generation, its webhook, a payment, the audit", async () => {
    const since = Date.now() / 1000;
    const user = await startedUser(h);
    await requestImage(user, "a lighthouse");
    await generationIn(h, user.id, "delivered");
    const paid = await user.pay(await invoiceFor(user, 50));
    if (!paid.ok) throw new Error(`the payment failed: ${paid.reason}`);
    // the successful_payment update is handled once Telegram took the payment
    const payment = await eventually(() => h.runtime.payments.byCharge(paid.chargeId));
    const web = await eventually(async () => {
      const text = await scrape("web");
      return Number.isNaN(sample(text, 'msb_credits_total{movement="sold"}')) ? undefined : text;
    });
    expect(sample(web, 'msb_update_duration_seconds_count{type="message"}')).toBeGreaterThanOrEqual(2);
    expect(sample(web, "msb_media_webhook_last_accepted_timestamp_seconds")).toBeGreaterThanOrEqual(since);
    expect(sample(web, 'msb_credits_total{movement="sold"}')).toBe(payment.credits);
    const worker = await scrape("worker");
    expect(
      sample(worker, 'msb_media_service_request_duration_seconds_count{call="createImage",result="ok"}'),
    ).toBe(1);
    // the simulator's credits_reserved for the image
    expect(sample(worker, 'msb_service_credits_total{kind="task"}')).toBeGreaterThan(0);
    for (const text of [web, worker]) {
      expect(sample(text, "msb_ready")).toBe(1);
      expect(sample(text, "msb_credits_held")).toBe(0);
      expect(sample(text, 'msb_queue_lag_seconds{queue="submit"}')).toBe(0);
    }
    // the worker's first ledger audit (every 10 minutes of the clock): every process reports it
    const audited = await eventually(async () => {
      const text = await scrape("web");
      return Number.isNaN(sample(text, "msb_ledger_audit_violations")) ? undefined : text;
    }, 20_000);
    expect(sample(audited, "msb_ledger_audit_violations")).toBe(0);
    expect(sample(audited, "msb_ledger_audit_timestamp_seconds")).toBeGreaterThanOrEqual(since);
  }, 60_000);
});

/** The value of one sample in the Prometheus text, NaN when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}
