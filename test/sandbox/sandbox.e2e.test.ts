import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../sandbox/playground/telegram";
import { freePort } from "../support/harness";
import { redisUrl } from "../support/test-services";

/**
 * The README's first command: sandbox mode with nothing configured but a bot
 * token. Embedded PGlite, the built-in simulator, real Redis; Telegram is the stand-in.
 */
describe("npm run sandbox", () => {
  let tg: TelegramStandIn | undefined;
  let bot: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    if (bot && bot.exitCode === null && bot.signalCode === null) {
      const exited = new Promise((resolve) => bot?.once("exit", resolve));
      bot.kill("SIGTERM");
      // a clean stop ends the process; one that hangs is killed
      const hung = setTimeout(() => bot?.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(hung);
    }
    await tg?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };

  test("with a token it starts on embedded defaults and makes a picture", async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    dataDir = await mkdtemp(join(tmpdir(), "msb-sandbox-"));
    const port = await freePort();
    bot = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: {
        ...base,
        SANDBOX: "1",
        BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        // the tests' Redis, wherever npm test found or started it (sandbox mode embeds only the database)
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `msb-sandbox-${randomBytes(4).toString("hex")}`,
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    bot.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    bot.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const deadline = Date.now() + 60_000;
    while (!output.includes("media studio bot started")) {
      if (Date.now() > deadline || bot.exitCode !== null)
        throw new Error(`sandbox did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain("sandbox: using the built-in media service simulator");
    const user = tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text?.includes("credits")), { timeoutMs: 20_000 });
    await user.send("/image a lighthouse");
    const offer = await user.waitFor((m) => Boolean(m.reply_markup), { timeoutMs: 20_000 });
    await user.press(/✅/, { message: offer });
    // the built-in simulator runs in real time: a few seconds for an image
    const photo = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 40_000 });
    expect(photo.caption).toContain("lighthouse");
  });

  test("a port already in use: one plain line saying what to do, exit 2, no stack trace", async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    const dir = await mkdtemp(join(tmpdir(), "msb-sandbox-port-"));
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        env: {
          ...base,
          SANDBOX: "1",
          DATA_DIR: dir,
          PORT: String(port),
          HOST: "127.0.0.1",
          REDIS_URL: redisUrl,
          REDIS_PREFIX: `msb-sandbox-${randomBytes(4).toString("hex")}`,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      const collect = (c: Buffer) => {
        output += c.toString();
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(2);
      expect(output.trim()).toBe(
        `Port ${port} is in use (another playground still running?). Stop it, or choose another port: PORT=8081 npm run sandbox`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
