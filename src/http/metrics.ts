import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface MetricsSources {
  generationsByState(): Promise<Record<string, number>>;
  queueDepths(): Promise<Record<string, Record<string, number>>>;
}

/** prom-client metrics; gauges are read from Postgres and Redis at scrape time. */
export function createMetrics(sources?: MetricsSources) {
  const registry = new Registry();
  const generations = new Gauge({
    name: "msb_generations",
    help: "Generations by state",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      if (!sources) return;
      this.reset();
      for (const [state, n] of Object.entries(await sources.generationsByState())) this.set({ state }, n);
    },
  });
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
  const serviceErrors = new Counter({
    name: "msb_media_service_errors_total",
    help: "Errors from the media service by kind",
    labelNames: ["kind"],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "msb_media_webhooks_total",
    help: "Media webhooks by result",
    labelNames: ["result"],
    registers: [registry],
  });
  const webhookLag = new Histogram({
    name: "msb_task_completion_lag_seconds",
    help: "From the task's completed_at to our learning of it",
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const telegram429 = new Counter({
    name: "msb_telegram_flood_waits_total",
    help: "Telegram 429 answers",
    registers: [registry],
  });
  const jobOutcomes = new Counter({
    name: "msb_job_outcomes_total",
    help: "Outcomes of queue steps",
    labelNames: ["queue", "outcome"],
    registers: [registry],
  });
  const credits = new Counter({
    name: "msb_credits_total",
    help: "Credits moved by this process: granted, charged, released, refunded",
    labelNames: ["movement"],
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
    generations,
    queueDepth,
    serviceErrors,
    webhooks,
    webhookLag,
    telegram429,
    jobOutcomes,
    credits,
    generationOutcomes,
    confirmToDelivered,
    httpRequests,
    httpSeconds,
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
