import { useEffect, useState } from "preact/hooks";
import { operations } from "../../../platform/media-service/catalog";
import type {
  BroadcastSummary,
  BroadcastsResponse,
  DayStats,
  ReportsResponse,
  StatsResponse,
  TodayStats,
} from "../contract";
import { isKey, type Key } from "./i18n";
import { ErrorLine, Loading, Num, useEnv } from "./shared";

const days = 30;

/** States by what came of them (the chat's /stats lists each state; a chart wants three). */
const outcomeOf: Record<string, "ok" | "failed" | "running"> = {
  completed: "ok",
  delivering: "ok",
  delivered: "ok",
  failed: "failed",
  rejected: "failed",
  expired: "failed",
  cancelled: "failed",
};

interface Series {
  name: string;
  label: string;
  values: number[];
}

/** The /stats numbers by day as charts (inline SVG), today's exactly as /stats shows them, the open reports and the broadcasts. */
export function Admin() {
  const { api, w } = useEnv();
  const [stats, setStats] = useState<StatsResponse>();
  const [broadcasts, setBroadcasts] = useState<BroadcastsResponse>();
  const [reports, setReports] = useState<ReportsResponse>();
  const [error, setError] = useState<unknown>();
  const load = () => {
    setError(undefined);
    api.stats(days).then(setStats, setError);
    api.broadcasts().then(setBroadcasts, setError);
    api.reports().then(setReports, setError);
  };
  useEffect(load, [api]);

  if (error !== undefined) return <ErrorLine error={error} onRetry={load} />;
  if (!stats) return <Loading />;
  const list = stats.days;
  const count = (d: DayStats, keep: (g: DayStats["generations"][number]) => boolean) =>
    d.generations.filter(keep).reduce((sum, g) => sum + g.count, 0);
  const byOperation: Series[] = operations.map((op) => ({
    name: op,
    label: w.op(op),
    values: list.map((d) => count(d, (g) => g.operation === op)),
  }));
  const byOutcome: Series[] = (["ok", "failed", "running"] as const).map((outcome) => ({
    name: outcome,
    label: w.t(`outcome-${outcome}`),
    values: list.map((d) => count(d, (g) => (outcomeOf[g.state] ?? "running") === outcome)),
  }));
  const credits: Series[] = (["sold", "spent", "held"] as const).map((name) => ({
    name,
    label: w.t(`series-${name}`),
    values: list.map((d) => d[name]),
  }));
  const margin: Series[] = [
    { name: "margin", label: w.t("admin-margin"), values: list.map((d) => d.margin) },
  ];
  // a margin of 0 on days with requests is a figure, not the absence of one
  const anyRequest = list.some((d) => d.generations.length > 0 || d.spent !== 0);
  const labels = list.map((d) => d.day);

  return (
    <section class="admin" data-testid="admin">
      <p class="hint">{w.t("admin-days", { days })}</p>
      <Chart
        testid="chart-generations"
        title={w.t("admin-generations")}
        unit={w.t("unit-requests-per-day")}
        labels={labels}
        series={byOperation}
        kind="stack"
      />
      <Chart
        testid="chart-outcomes"
        title={w.t("admin-outcomes")}
        unit={w.t("unit-requests-per-day")}
        labels={labels}
        series={byOutcome}
        kind="stack"
      />
      <Chart
        testid="chart-credits"
        title={w.t("admin-credits")}
        unit={w.t("unit-credits-per-day")}
        labels={labels}
        series={credits}
        kind="lines"
      />
      <Chart
        testid="chart-margin"
        title={w.t("admin-margin")}
        unit={w.t("unit-credits-per-day")}
        labels={labels}
        series={margin}
        kind="stack"
        hasData={anyRequest}
      />
      <Today today={stats.today} />
      <OpenReports reports={reports} />
      <h2>{w.t("admin-broadcasts")}</h2>
      {broadcasts && broadcasts.items.length === 0 && <p class="hint">{w.t("admin-broadcasts-empty")}</p>}
      {broadcasts && broadcasts.items.length > 0 && (
        <ul class="broadcasts" data-testid="broadcasts">
          {broadcasts.items.map((b) => (
            <Broadcast key={b.id} b={b} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The open reports of results in groups: the admins act on them with the buttons in their chat. */
function OpenReports({ reports }: { reports: ReportsResponse | undefined }) {
  const { w } = useEnv();
  return (
    <>
      <h2>{w.t("admin-reports")}</h2>
      {reports && reports.reports.length === 0 && (
        <p class="hint" data-testid="reports-empty">
          {w.t("admin-reports-empty")}
        </p>
      )}
      {reports && reports.reports.length > 0 && (
        <ul class="broadcasts" data-testid="reports">
          {reports.reports.map((r) => (
            <li key={r.generationId} data-testid="report" data-id={r.generationId}>
              <p class="clip" dir="auto">
                {r.prompt}
              </p>
              <p class="hint" dir="auto">
                {w.date(r.createdAt)} · {r.group} · {r.maker} · {r.operation} ·{" "}
                {w.t("admin-reporters", { count: r.reporters })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Broadcast({ b }: { b: BroadcastSummary }) {
  const { w } = useEnv();
  return (
    <li data-testid="broadcast" data-id={b.id} data-state={b.state}>
      <p class="clip" dir="auto">
        {b.text}
      </p>
      <p class="hint">
        {w.date(b.createdAt)} · <Num value={b.counts.total} testid="broadcast-total" />
      </p>
      <p class="counts">
        {(["sent", "blocked", "failed", "unconfirmed", "pending"] as const).map((k) => (
          <span key={k} class="count-item">
            {w.t(`bc-${k}` as Key)} <Num value={b.counts[k]} testid={`broadcast-${k}`} />
          </span>
        ))}
      </p>
    </li>
  );
}

/** Today's figures, the same numbers /stats reads (collectStats), each with data-testid `stat-…`. */
function Today({ today }: { today: TodayStats }) {
  const { w } = useEnv();
  const requests = today.generations.reduce((sum, g) => sum + g.counts.today, 0);
  const row = (label: string, testid: string, value: number) => (
    <div class="fact">
      <dt>{label}</dt>
      <dd>
        <Num value={value} testid={testid} />
      </dd>
    </div>
  );
  const c = today.credits;
  /** a state's name in the reader's language (as the API names it when the page does not know it) */
  const stateWord = (state: string) => {
    const key = `state-${state}`;
    return isKey(key) ? w.t(key) : state;
  };
  return (
    <>
      <h2>{w.t("admin-today")}</h2>
      <dl class="facts" data-testid="today">
        {row(w.t("stat-users"), "stat-users-total", today.users.total)}
        <div class="fact">
          <dt>{w.t("stat-active")}</dt>
          <dd>
            <Num value={today.users.active1} testid="stat-users-active1" /> /{" "}
            <Num value={today.users.active7} testid="stat-users-active7" /> /{" "}
            <Num value={today.users.active30} testid="stat-users-active30" />
          </dd>
        </div>
        {row(w.t("stat-blocked"), "stat-users-blocked", today.users.blocked)}
        {row(w.t("stat-banned"), "stat-users-banned", today.users.banned)}
        {row(w.t("stat-requests-today"), "stat-requests-today", requests)}
        {operations.map((op) => {
          const mine = today.generations.filter((g) => g.operation === op && g.counts.today > 0);
          if (mine.length === 0) return null;
          return (
            <div class="fact" key={op}>
              <dt>{w.op(op)}</dt>
              <dd>
                {mine.map((g) => (
                  <span key={g.state} class="state">
                    {stateWord(g.state)} <Num value={g.counts.today} testid={`stat-today-${op}-${g.state}`} />
                  </span>
                ))}
              </dd>
            </div>
          );
        })}
        {row(w.t("stat-granted"), "stat-credits-granted", c.granted)}
        {row(w.t("stat-sold"), "stat-credits-sold", c.sold)}
        {row(w.t("stat-adjusted"), "stat-credits-adjusted", c.adjusted)}
        {row(w.t("stat-held"), "stat-credits-held", c.held)}
        {row(w.t("stat-charged"), "stat-credits-charged", c.charged)}
        {row(w.t("stat-refunded"), "stat-credits-refunded", c.refunded)}
        {row(w.t("stat-spent"), "stat-service-spent", today.service.spent)}
        {row(w.t("stat-margin"), "stat-margin", today.margin)}
      </dl>
    </>
  );
}

const width = 320;
const height = 150;
const pad = { top: 10, right: 8, bottom: 20, left: 40 };

/** The smallest of 1, 2, 5 × 10ⁿ at or above `v`: an axis ends at a round number. */
function roundUp(v: number): number {
  if (v <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * power >= v) ?? 10) * power;
}

/** The values of the y axis' labelled lines: its round top, half of it when that is whole, 0, and its round bottom. */
function axisTicks(top: number, bottom: number): number[] {
  const half = top >= 2 && Number.isInteger(top / 2) ? [top / 2] : [];
  return [...new Set([top, ...half, 0, ...(bottom < 0 ? [bottom] : [])])];
}

/**
 * Bars (stacked) or lines by day, drawn as SVG: a chart library would weigh
 * more than the page. Its y axis runs between round numbers with 0 marked, its
 * x axis names the first, middle and last day; days with nothing at all say
 * so instead of drawing an empty frame.
 */
function Chart(props: {
  testid: string;
  title: string;
  unit: string;
  labels: string[];
  series: Series[];
  kind: "stack" | "lines";
  /** whether the days had anything to show, when values of 0 do not say (unset: any value but 0) */
  hasData?: boolean;
}) {
  const { w } = useEnv();
  const n = props.labels.length;
  const total = props.series.reduce((sum, s) => sum + s.values.reduce((a, b) => a + b, 0), 0);
  const anything = props.hasData ?? props.series.some((s) => s.values.some((v) => v !== 0));
  const caption = (
    <figcaption>
      {props.title} <small class="unit">{props.unit}</small>
    </figcaption>
  );
  if (!anything) {
    return (
      <figure class="chart" data-testid={props.testid} data-total={total} data-empty="true">
        {caption}
        <p class="hint chart-empty" data-testid="chart-empty">
          {w.t("chart-empty")}
        </p>
      </figure>
    );
  }
  const sums = props.labels.map((_, i) =>
    props.kind === "stack"
      ? props.series.reduce(
          (acc, s) => {
            const v = s.values[i] ?? 0;
            return v >= 0 ? { up: acc.up + v, down: acc.down } : { up: acc.up, down: acc.down + v };
          },
          { up: 0, down: 0 },
        )
      : {
          up: Math.max(0, ...props.series.map((s) => s.values[i] ?? 0)),
          down: Math.min(0, ...props.series.map((s) => s.values[i] ?? 0)),
        },
  );
  const top = roundUp(Math.max(0, ...sums.map((s) => s.up)));
  const bottom = -roundUp(-Math.min(0, ...sums.map((s) => s.down)));
  // every value 0: the zero line alone, at the foot of the frame
  const flat = top === 0 && bottom === 0;
  const ceiling = flat ? 1 : top;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const y = (v: number) => pad.top + ((ceiling - v) / (ceiling - bottom)) * plotH;
  const slot = plotW / Math.max(1, n);
  const x = (i: number) => pad.left + i * slot;
  const dayFormat = new Intl.DateTimeFormat(w.lang, { month: "short", day: "numeric", timeZone: "UTC" });
  const day = (i: number) => {
    const label = props.labels[i];
    return label ? dayFormat.format(new Date(`${label}T00:00:00Z`)) : "";
  };

  const shapes = [];
  if (props.kind === "stack") {
    for (let i = 0; i < n; i++) {
      let up = 0;
      let down = 0;
      for (const [k, s] of props.series.entries()) {
        const v = s.values[i] ?? 0;
        if (v === 0) continue;
        const from = v > 0 ? up : down;
        const to = from + v;
        if (v > 0) up = to;
        else down = to;
        shapes.push(
          <rect
            key={`${i}-${k}`}
            class={`s${k}`}
            x={x(i) + slot * 0.15}
            width={slot * 0.7}
            y={Math.min(y(from), y(to))}
            height={Math.abs(y(from) - y(to))}
          >
            <title>{`${day(i)} · ${s.label}: ${w.num(v)}`}</title>
          </rect>,
        );
      }
    }
  } else {
    for (const [k, s] of props.series.entries()) {
      const points = s.values.map((v, i) => `${x(i) + slot / 2},${y(v)}`).join(" ");
      shapes.push(<polyline key={k} class={`s${k}`} points={points} />);
      // a day that stands alone is a point, not only a bend in a line
      for (const [i, v] of s.values.entries()) {
        if (v === 0) continue;
        shapes.push(
          <circle key={`${k}-${i}`} class={`s${k}`} cx={x(i) + slot / 2} cy={y(v)} r={2.5}>
            <title>{`${day(i)} · ${s.label}: ${w.num(v)}`}</title>
          </circle>,
        );
      }
    }
  }
  const middle = Math.floor((n - 1) / 2);
  return (
    <figure class="chart" data-testid={props.testid} data-total={total}>
      {caption}
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={props.title} dir="ltr">
        {(flat ? [0] : axisTicks(top, bottom)).map((v) => (
          <g key={v} data-testid="y-tick" data-value={v}>
            <line
              class={v === 0 ? "axis" : "grid"}
              x1={pad.left}
              x2={width - pad.right}
              y1={y(v)}
              y2={y(v)}
            />
            <text class="tick" x={pad.left - 4} y={y(v) + 3} text-anchor="end">
              {w.num(v)}
            </text>
          </g>
        ))}
        {shapes}
        {[0, middle, n - 1]
          .filter((i, k, all) => n > 0 && all.indexOf(i) === k)
          .map((i) => (
            <text
              key={i}
              class="tick"
              data-testid="x-tick"
              x={x(i) + slot / 2}
              y={height - 5}
              text-anchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"}
            >
              {day(i)}
            </text>
          ))}
      </svg>
      {props.series.length > 1 && (
        <ul class="legend">
          {props.series.map((s, k) => (
            <li key={s.name}>
              <i class={`s${k}`} /> {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
