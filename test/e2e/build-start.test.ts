import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness } from "../support/harness";

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
    expect(out).toContain("node --enable-source-maps dist/main.js");
    const url = (JSON.parse(started) as { http: string }).http;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    // the whole group, as an orchestrator stops a container: npm itself dies of the signal
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    expect(out).toContain("draining: no new updates");
  });
});
