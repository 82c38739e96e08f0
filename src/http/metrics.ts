import { Counter, Gauge, Histogram, Registry } from "prom-client";

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
  return { registry, generations, queueDepth, serviceErrors, webhooks, webhookLag, telegram429, jobOutcomes };
}
export type Metrics = ReturnType<typeof createMetrics>;
