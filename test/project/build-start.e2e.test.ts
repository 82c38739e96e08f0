import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eventually, freePort, type Harness, redisUrl, startHarness } from "../support/harness";

/** `npm run build && npm start`: plain node on the bundle in dist/, as the image runs it. */
describe("the built bot", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ noRuntime: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  test("npm start builds, starts from dist/ with plain node, is ready, and stops on SIGTERM", async () => {
    const child = spawn("npm", ["start"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/root",
        ...h.env,
        PORT: "0",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const started = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not started in time:\n${out}`)), 60_000);
      const look = () => {
        const line = out.split("\n").find((l) => l.includes("media studio bot started"));
        if (line) {
          clearTimeout(timer);
          resolve(line);
        } else setTimeout(look, 50);
      };
      look();
    });
    expect(out).toMatch(/node( --[a-z-]+(=\d+)?)+ dist\/main\.js/);
    const url = (JSON.parse(started) as { http: string }).http;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    // the whole group, as an orchestrator stops a container: npm itself dies of the signal
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    // npm dies of the signal at once; the bot, its child, writes its drain line a moment later
    await eventually(async () => (out.includes("draining: no new updates") ? true : undefined));
  });

  test("npm start with nothing configured starts the playground from the build and stops on SIGINT", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "msb-start-playground-"));
    const port = await freePort();
    const child = spawn("npm", ["start"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/root",
        DATA_DIR: dataDir,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `msb-start-${randomBytes(4).toString("hex")}`,
        PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    const collect = (d: Buffer) => {
      out += d.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed in time:\n${out}`)), 90_000);
        const look = () => {
          const m = /Open (http:\/\/\S+) in a browser/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            resolve(m[1]);
          } else setTimeout(look, 50);
        };
        look();
      });
      expect(out).toMatch(/node( --[a-z-]+(=\d+)?)+ dist\/main\.js/);
      expect(address).toBe(`http://127.0.0.1:${port}/playground/`);
      const page = await fetch(address);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<script");
      process.kill(-child.pid!, "SIGINT");
      await exited;
      await expect(fetch(address)).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
