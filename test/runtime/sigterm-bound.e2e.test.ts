import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness } from "../support/harness";

/**
 * A relay to a local service that can turn into a black hole: open connections
 * stay open and silent, new ones are accepted and never answered.
 */
async function startBlackHoleRelay(targetPort: number) {
  const held = new Set<Socket>();
  let relaying = true;
  const server = createServer((client) => {
    held.add(client);
    client.on("error", () => undefined).on("close", () => held.delete(client));
    if (!relaying) return;
    const upstream = connect(targetPort, "127.0.0.1");
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    // once swallowed, whatever the service still says goes nowhere
    upstream.on("data", (chunk: Buffer) => {
      if (relaying) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: (original: string) => {
      const u = new URL(original);
      u.port = String(port);
      return u.toString().replace(/\/$/, "");
    },
    swallow() {
      relaying = false;
    },
    async close() {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An orchestrator stops a bot whose surroundings are gone: the reader of its
 * stdout exited, Telegram and the media service hang. SIGTERM still ends it
 * within main's bound (38 s), whatever the drain is waiting for.
 */
describe("SIGTERM with everything around the bot gone", () => {
  let h: Harness;
  let telegram: Awaited<ReturnType<typeof startBlackHoleRelay>>;
  let media: Awaited<ReturnType<typeof startBlackHoleRelay>>;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    h = await startHarness({ noRuntime: true });
    telegram = await startBlackHoleRelay(Number(new URL(h.tg.apiRoot).port));
    media = await startBlackHoleRelay(Number(new URL(h.sim.url).port));
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await telegram?.close();
    await media?.close();
    await h?.stop();
  });

  test("exits within the bound after its stdout pipe closed and Telegram and the media service hang", async () => {
    child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/root",
        ...h.env,
        TELEGRAM_API_ROOT: telegram.url(h.tg.apiRoot),
        MEDIA_API_URL: media.url(h.sim.url),
        BOT_MODE: "polling",
        PORT: "0",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const proc = child;
    let out = "";
    let err = "";
    proc.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    proc.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const exited = new Promise<number>((resolve) => proc.once("exit", () => resolve(Date.now())));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not started in time:\n${out}${err}`)), 60_000);
      const look = () => {
        if (out.includes("media studio bot started")) {
          clearTimeout(timer);
          resolve();
        } else setTimeout(look, 50);
      };
      look();
    });
    // let polling settle into its long poll before the world goes away
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    telegram.swallow();
    media.swallow();
    proc.stdout?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalled = Date.now();
    proc.kill("SIGTERM");
    const bound = 40_000;
    const exitedAt = await Promise.race([
      exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), bound)),
    ]);
    expect(exitedAt, `still running ${bound} ms after SIGTERM; stderr:\n${err}`).toBeDefined();
    expect(exitedAt! - signalled).toBeLessThan(bound);
  }, 120_000);

  test("a process logging right before it exits, its stdout reader gone, exits at once", async () => {
    // what main does on each way out (the force-exit timer, a fatal stop): log, then exit
    const script = [
      'import { createLogger } from "./src/platform/lib/logger.ts";',
      'const logger = createLogger("info");',
      "setTimeout(() => {",
      '  logger.warn("drain took too long");',
      '  logger.warn("exiting");',
      "  process.exit(3);",
      "}, 300);",
    ].join("\n");
    const proc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout.destroy();
    let err = "";
    proc.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const code = await Promise.race([
      new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c))),
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 10_000)),
    ]);
    if (code === "hung") proc.kill("SIGKILL");
    expect(code, err).toBe(3);
  }, 20_000);
});
