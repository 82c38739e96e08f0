import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { startHarness } from "../test/support/harness";
import { median } from "./percentile";
import { startCommand } from "./support/start-flags";

/**
 * Start-up of the bot as shipped (node on the esbuild bundle in dist/, as `npm start` runs it)
 * beside the same bot run through tsx: milliseconds until "media studio bot
 * started" and the resident memory at that moment. Run `npm run build` first.
 */
async function startOnce(args: string[], env: Record<string, string>) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), 60_000);
    const look = () => {
      if (out.includes("media studio bot started")) {
        clearTimeout(timer);
        resolve();
      } else setTimeout(look, 5);
    };
    look();
  });
  const ms = performance.now() - t0;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await gone;
  return { startup_ms: Math.round(ms), rss_mb: Math.round(rssKb / 1024) };
}

const shipped = startCommand();
const h = await startHarness({ noRuntime: true });
try {
  const env = { ...h.env, PORT: "0", LOG_LEVEL: "info" };
  type Run = { startup_ms: number; rss_mb: number };
  const runs: { built: Run[]; tsx: Run[] } = { built: [], tsx: [] };
  for (let i = 0; i < 3; i++) {
    runs.built.push(await startOnce([...shipped.flags, "dist/main.js"], { ...shipped.env, ...env }));
    runs.tsx.push(await startOnce(["--import", "tsx", "src/main.ts"], env));
  }
  const summary = (r: Run[]) => ({
    startup_ms_median: median(r.map((x) => x.startup_ms)),
    rss_mb_median: median(r.map((x) => x.rss_mb)),
    runs: r,
  });
  process.stdout.write(
    `${JSON.stringify({ bench: "startup", built: summary(runs.built), tsx: summary(runs.tsx) }, null, 2)}\n`,
  );
} finally {
  await h.stop();
}
process.exit(0);
