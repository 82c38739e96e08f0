import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { statementsSent } from "../db/prepared-statements";

/** What the gauges read at scrape time; every process reports the same figures (a panel takes their max). */
export interface MetricsSources {
  generationsByState(): Promise<Record<string, number>>;
  queueDepths(): Promise<Record<string, Record<string, number>>>;
  /** seconds the oldest job waiting in each queue has been due */
  queueLags(): Promise<Record<string, number>>;
  /** credits on hold now, over every account */
  creditsHeld(): Promise<number>;
  /** recipients of the broadcasts still sending, by state */
  broadcastRecipients(): Promise<Record<string, number>>;
  /** the last ledger audit's result, whichever process ran it (none before the first) */
  lastAudit(): Promise<{ at: number; violations: number } | undefined>;
}

/**
 * What is read when Prometheus scrapes rather than counted as it happens: the
 * gauges read from Postgres and Redis (`sources`), this process's readiness and
 * the statements it sent to Postgres.
 */
function scrapedFigures(registry: Registry, sources: MetricsSources | undefined) {
  const gaugeBy = (
    name: string,
    help: string,
    label: string,
    read: (s: MetricsSources) => Promise<Record<string, number>>,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        if (!sources) return;
        const values = await read(sources);
        this.reset();
        for (const [value, n] of Object.entries(values)) this.set({ [label]: value }, n);
      },
    });
  /**
   * A gauge without labels, absent until `read` knows its value (prom-client
   * would show 0): "never audited" must not read as "audited in 1970".
   */
  const gaugeWhenKnown = (name: string, help: string, read: () => Promise<number | undefined>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const value = await read();
        if (value === undefined) this.remove();
        else this.set(value);
      },
    });
  const generations = gaugeBy("msb_generations", "Generations by state", "state", (s) =>
    s.generationsByState(),
  );
  const queueDepth = new Gauge({
    name: "msb_queue_jobs",
    help: "Jobs per queue and state",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      if (!sources) return;
      this.reset();
      for (const [queue, counts] of Object.entries(await sources.queueDepths())) {
        for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
      }
    },
  });
  gaugeBy(
    "msb_queue_lag_seconds",
    "How long the oldest job waiting in the queue has been due (0 when none waits)",
    "queue",
    (s) => s.queueLags(),
  );
  gaugeWhenKnown("msb_credits_held", "Credits on hold now, over every account", async () =>
    sources?.creditsHeld(),
  );
  gaugeBy("msb_broadcast_recipients", "Recipients of the broadcasts still sending, by state", "state", (s) =>
    s.broadcastRecipients(),
  );
  gaugeWhenKnown(
    "msb_ledger_audit_violations",
    "Violations the last ledger audit found (absent before the first audit)",
    async () => (await sources?.lastAudit())?.violations,
  );
  gaugeWhenKnown("msb_ledger_audit_timestamp_seconds", "Unix time of the last ledger audit", async () => {
    const last = await sources?.lastAudit();
    return last ? last.at / 1000 : undefined;
  });
  let readiness: (() => Promise<boolean>) | undefined;
  gaugeWhenKnown("msb_ready", "1 when this process's /readyz answers 200, else 0", async () =>
    readiness ? ((await readiness()) ? 1 : 0) : undefined,
  );
  new Counter({
    name: "msb_db_statements_total",
    help: "Statements this process sent to Postgres (each a round trip unless pipelined behind another)",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statementsSent());
    },
  });
  return {
    generations,
    queueDepth,
    /** `msb_ready` asks `probe` at each scrape: the same checks as /readyz (set where /readyz is served) */
    watchReadiness(probe: () => Promise<boolean>) {
      readiness = probe;
    },
  };
}

/** prom-client metrics; gauges are read from Postgres and Redis at scrape time. */
export function createMetrics(sources?: MetricsSources) {
  const registry = new Registry();
  const scraped = scrapedFigures(registry, sources);
  const serviceErrors = new Counter({
    name: "msb_media_service_errors_total",
    help: "Errors from the media service by kind",
    labelNames: ["kind"],
    registers: [registry],
  });
  const serviceSeconds = new Histogram({
    name: "msb_media_service_request_duration_seconds",
    help: "Calls to the media service (its client's retries included), by call and result (ok or the error's kind)",
    labelNames: ["call", "result"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const serviceCredits = new Counter({
    name: "msb_service_credits_total",
    help: "Credits the media service took: for results (task) and for tasks no request could take (orphan)",
    labelNames: ["kind"],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "msb_media_webhooks_total",
    help: "Media webhooks by result",
    labelNames: ["result"],
    registers: [registry],
  });
  const webhookLastAccepted = new Gauge({
    name: "msb_media_webhook_last_accepted_timestamp_seconds",
    help: "Unix time of the last media webhook this process accepted (its start until one comes)",
    registers: [registry],
  });
  // only a process that serves the media webhook has one
  webhookLastAccepted.remove();
  const webhookLag = new Histogram({
    name: "msb_task_completion_lag_seconds",
    help: "From the task's completed_at to our learning of it",
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const updateSeconds = new Histogram({
    name: "msb_update_duration_seconds",
    help: "Telegram updates handled by this process, by type: time from intake to done",
    labelNames: ["type"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const telegram429 = new Counter({
    name: "msb_telegram_flood_waits_total",
    help: "Telegram 429 answers",
    registers: [registry],
  });
  const jobOutcomes = new Counter({
    name: "msb_job_outcomes_total",
    help: "Outcomes of queue steps (error: an attempt threw; gave-up: its last attempt did)",
    labelNames: ["queue", "outcome"],
    registers: [registry],
  });
  const credits = new Counter({
    name: "msb_credits_total",
    help: "Credits moved by this process: granted, sold, charged, released, refunded",
    labelNames: ["movement"],
    registers: [registry],
  });
  const promptsRefused = new Counter({
    name: "msb_prompts_refused_total",
    help: "Requests refused for a prompt matching one of the operator's refused words, by operation",
    labelNames: ["operation"],
    registers: [registry],
  });
  const generationOutcomes = new Counter({
    name: "msb_generation_outcomes_total",
    help: "Generations that came to rest, by operation, model and outcome",
    labelNames: ["operation", "model", "outcome"],
    registers: [registry],
  });
  const confirmToDelivered = new Histogram({
    name: "msb_confirm_to_delivered_seconds",
    help: "From Confirm to the result in the chat",
    labelNames: ["operation"],
    buckets: [5, 10, 20, 30, 60, 120, 300, 600, 1200],
    registers: [registry],
  });
  // by route pattern, never the path: a path may hold a secret, and paths are unbounded
  const httpRequests = new Counter({
    name: "msb_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const httpSeconds = new Histogram({
    name: "msb_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  collectDefaultMetrics({ register: registry, prefix: "msb_" });
  return {
    registry,
    generations: scraped.generations,
    queueDepth: scraped.queueDepth,
    serviceErrors,
    serviceSeconds,
    serviceCredits,
    webhooks,
    webhookLastAccepted,
    webhookLag,
    updateSeconds,
    telegram429,
    jobOutcomes,
    credits,
    promptsRefused,
    generationOutcomes,
    confirmToDelivered,
    httpRequests,
    httpSeconds,
    watchReadiness: scraped.watchReadiness,
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
