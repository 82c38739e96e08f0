import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import { projectPath } from "../../src/platform/lib/project-root";

/** Where the compose file's Prometheus and Grafana get their configuration. */
const monitoringFile = (...parts: string[]) => projectPath("deploy", "monitoring", ...parts);

/** One PromQL expression of the monitoring files: a dashboard panel's target or an alert rule. */
export interface MonitoringQuery {
  kind: "panel" | "alert";
  /** the panel's title or the alert's name */
  title: string;
  expr: string;
  legend?: string | undefined;
  /** a panel's unit (Grafana's: s, ops, percentunit, bytes…) */
  unit?: string | undefined;
}

const target = z.object({ expr: z.string().min(1), legendFormat: z.string().optional() });
const panel = z.object({
  type: z.string(),
  title: z.string(),
  targets: z.array(target).optional(),
  fieldConfig: z.object({ defaults: z.object({ unit: z.string().optional() }) }).optional(),
  /** a row's own panels */
  panels: z.array(z.unknown()).optional(),
});
const dashboard = z.object({ panels: z.array(panel) });

const rules = z.object({
  groups: z.array(z.object({ rules: z.array(z.object({ alert: z.string(), expr: z.string() })) })),
});

const scrapeConfig = z.object({
  scrape_configs: z.array(
    z.object({
      job_name: z.string(),
      dns_sd_configs: z.array(z.object({ names: z.array(z.string()), port: z.number() })).optional(),
    }),
  ),
});

/** Every target of every panel of the provisioned dashboard (rows' nested panels included). */
export function dashboardQueries(): MonitoringQuery[] {
  const json: unknown = JSON.parse(
    readFileSync(monitoringFile("grafana", "dashboards", "media-studio.json"), "utf8"),
  );
  const out: MonitoringQuery[] = [];
  const visit = (p: z.infer<typeof panel>) => {
    const unit = p.fieldConfig?.defaults.unit;
    for (const t of p.targets ?? [])
      out.push({ kind: "panel", title: p.title, expr: t.expr, legend: t.legendFormat, unit });
    for (const nested of p.panels ?? []) visit(panel.parse(nested));
  };
  for (const p of dashboard.parse(json).panels) visit(p);
  return out;
}

/** Every alert rule of alerts.yml. */
export function alertQueries(): MonitoringQuery[] {
  const parsed = rules.parse(parse(readFileSync(monitoringFile("alerts.yml"), "utf8")));
  return parsed.groups.flatMap((g) =>
    g.rules.map((r) => ({ kind: "alert" as const, title: r.alert, expr: r.expr })),
  );
}

/** The scrape jobs of prometheus.yml that find the bot's replicas, with their port: `web` and `worker`. */
export function botScrapeJobs(): Array<{ role: string; port: number }> {
  const parsed = scrapeConfig.parse(parse(readFileSync(monitoringFile("prometheus.yml"), "utf8")));
  return parsed.scrape_configs.flatMap((job) =>
    (job.dns_sd_configs ?? []).map((sd) => ({ role: job.job_name, port: sd.port })),
  );
}

const composeFile = z.object({
  services: z.record(z.string(), z.object({ environment: z.record(z.string(), z.unknown()).optional() })),
});

/** The PORT each bot service of docker-compose.yml listens on. */
export function composePorts(): Record<string, number> {
  const parsed = composeFile.parse(
    parse(readFileSync(projectPath("docker-compose.yml"), "utf8"), { merge: true }),
  );
  const out: Record<string, number> = {};
  for (const [name, service] of Object.entries(parsed.services)) {
    const port = service.environment?.PORT;
    if (port !== undefined) out[name] = Number(port);
  }
  return out;
}
