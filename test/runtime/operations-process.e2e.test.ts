import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../sandbox/playground/telegram";
import { freePort, type Harness, requestImage, startedUser, startHarness } from "../support/harness";

/** The bot as an operator runs it: the build (`dist/main.js`, made before the run: build-once.ts), plain node, in a process of its own. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/main.js"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((l) => l.trim() !== ""),
    );
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; atMs: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, atMs: Date.now() })),
  );
  return { child, lines, exited };
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readiness(
  port: number,
): Promise<{ status: number; checks: Record<string, string> } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    return { status: res.status, checks: body.checks };
  } catch {
    return undefined;
  }
}

describe("operations through the real process", () => {
  let h: Harness | undefined;
  let main: ChildProcess | undefined;
  let extraTelegram: TelegramStandIn | undefined;

  afterEach(async () => {
    if (main && main.exitCode === null) {
      const gone = new Promise((r) => main!.once("exit", r));
      main.kill("SIGKILL");
      await gone;
    }
    main = undefined;
    await extraTelegram?.close();
    extraTelegram = undefined;
    await h?.stop();
    h = undefined;
  });

  test("Redis unreachable at start: one clear line and a non-zero exit within 10 s", async () => {
    h = await startHarness({ noRuntime: true });
    const started = Date.now();
    const run = startMain({ ...h.env, REDIS_URL: "redis://127.0.0.1:1", PORT: "0", LOG_LEVEL: "info" });
    main = run.child;
    const { code, atMs } = await run.exited;
    expect(code).toBe(1);
    expect(atMs - started).toBeLessThan(10_000);
    expect(run.lines).toEqual([expect.stringContaining("Redis at 127.0.0.1:1 does not answer")]);
    expect(run.lines[0]).toContain("REDIS_URL");
  });

  test("Postgres unreachable at start: one clear line and a non-zero exit within 10 s", async () => {
    h = await startHarness({ noRuntime: true });
    const started = Date.now();
    const run = startMain({
      ...h.env,
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere",
      PORT: "0",
      LOG_LEVEL: "info",
    });
    main = run.child;
    const { code, atMs } = await run.exited;
    expect(code).toBe(1);
    expect(atMs - started).toBeLessThan(10_000);
    expect(run.lines).toEqual([expect.stringContaining("Postgres at 127.0.0.1:1 does not answer")]);
    expect(run.lines[0]).toContain("DATABASE_URL");
  });

  test("a bot token Telegram refuses (401): a clear line and a non-zero exit", async () => {
    h = await startHarness({ noRuntime: true });
    const run = startMain({
      ...h.env,
      BOT_TOKEN: "7000000009:AAWrongTokenTheStandInDoesNotKnow_012345",
      PORT: "0",
      LOG_LEVEL: "info",
    });
    main = run.child;
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.lines.join("\n")).toContain("Telegram refused the bot token");
    expect(run.lines.join("\n")).toContain("check BOT_TOKEN");
    expect(run.lines.join("\n")).not.toContain("AAWrongTokenTheStandInDoesNotKnow");
  });

  test("Telegram answering 409 (another instance polls): a clear line and a non-zero exit", async () => {
    h = await startHarness({ noRuntime: true });
    h.tg.failNext("getUpdates", {
      code: 409,
      description:
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    });
    const run = startMain({ ...h.env, PORT: "0", LOG_LEVEL: "info" });
    main = run.child;
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.lines.join("\n")).toContain("another instance is polling with this bot token");
  });

  test("getMe failing: not ready, with a line per retry, then ready once Telegram answers", async () => {
    h = await startHarness({ noRuntime: true });
    const telegramPort = await freePort();
    const httpPort = await freePort();
    const token = "7000000002:AAStandInTokenForReadiness_0123456789";
    const run = startMain({
      ...h.env,
      BOT_TOKEN: token,
      TELEGRAM_API_ROOT: `http://127.0.0.1:${telegramPort}`,
      PORT: String(httpPort),
      LOG_LEVEL: "info",
    });
    main = run.child;
    const notReady = await until(async () => {
      const r = await readiness(httpPort);
      return r && r.status === 503 && r.checks.telegram?.includes("getMe failed") ? r : undefined;
    }).catch(async (err: Error) => {
      throw new Error(
        `${err.message}\n${JSON.stringify(await readiness(httpPort))}\n${run.lines.join("\n")}`,
      );
    });
    expect(notReady.checks.postgres).toBe("ok");
    expect(run.lines.some((l) => l.includes("Telegram unreachable: retrying getMe"))).toBe(true);

    extraTelegram = await startTelegramStandIn({ token, port: telegramPort, rules: { flood: false } });
    const ready = await until(async () => {
      const r = await readiness(httpPort);
      return r?.status === 200 ? r : undefined;
    }, 60_000);
    expect(ready.checks.telegram).toBe("ok");
    expect(ready.checks.workers).toBe("ok");
  });

  test("a worker process serves its own /metrics (job outcomes, business counters) and logs each step", async () => {
    const webLogs: string[] = [];
    h = await startHarness({
      clockFactor: 1,
      simulator: { latencyMs: { image: 300, edit: 300, video: 300, dub: 300 } },
      env: { ROLE: "web", LOG_LEVEL: "info" },
      logs: webLogs,
    });
    const workerPort = await freePort();
    const run = startMain({ ...h.env, ROLE: "worker", PORT: String(workerPort), LOG_LEVEL: "info" });
    main = run.child;
    await until(() => (run.lines.some((l) => l.includes("media studio bot started")) ? true : undefined));

    const user = await startedUser(h);
    await requestImage(user, "a lighthouse for the operator");
    await user.waitFor((m) => m.photo);
    const [g] = await h.runtime.generations.recent(user.id, 1);
    await until(async () =>
      (await h!.runtime.generations.get(g!.id))?.state === "delivered" ? true : undefined,
    );

    const metrics = await until(async () => {
      const text = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
      // the deliver job's outcome is counted once its step returns, a moment after the generation is delivered
      return text.includes('msb_generation_outcomes_total{operation="image"') &&
        text.includes('msb_job_outcomes_total{queue="deliver",outcome="delivered"}')
        ? text
        : undefined;
    });
    expect(metrics).toMatch(/msb_job_outcomes_total\{queue="submit",outcome="accepted"\} 1/);
    expect(metrics).toMatch(/msb_job_outcomes_total\{queue="deliver",outcome="delivered"\} 1/);
    expect(metrics).toMatch(/msb_credits_total\{movement="charged"\} [1-9]/);
    expect(metrics).toMatch(
      /msb_generation_outcomes_total\{operation="image",model="[^"]+",outcome="delivered"\} 1/,
    );
    expect(metrics).toMatch(/msb_confirm_to_delivered_seconds_count\{operation="image"\} 1/);
    expect(metrics).toContain("msb_process_resident_memory_bytes");

    const logged = (text: string) =>
      [...webLogs, ...run.lines].find(
        (l) => l.includes(text) && l.includes(g!.id) && l.includes(`"userId":${user.id}`),
      );
    expect(logged("generation created: credits held")).toBeDefined();
    const done = await h.runtime.generations.get(g!.id);
    for (const step of [
      "generation submitted to the service",
      "generation completed and charged",
      "generation delivered",
    ]) {
      expect(logged(step), step).toContain(`"taskId":"${done!.taskId}"`);
    }
  });
});
