import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, expect, it } from "vitest";
import { clientFor, settle, waitFor } from "../media/support";

/** `npm run simulator` (src/simulator/main.ts): starts on a port a person can curl, and prints URL and key. */

let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGTERM");
});

it("starts from the environment, prints its URL and key, and serves the API", async () => {
  child = spawn(process.execPath, ["--import", "tsx", "src/simulator/main.ts"], {
    env: {
      ...process.env,
      PORT: "0",
      SIMULATOR_API_KEY: "curl-me",
      SIMULATOR_LATENCY_MS: "50",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], 20_000);
  // the key is printed on a line of its own, which may come in a later chunk
  await waitFor(() => (out.includes("API key:") ? true : undefined), 5_000);
  expect(out).toContain("API key: curl-me");
  const client = clientFor({ url, apiKey: "curl-me" });
  const reg = await client.createImage({ prompt: "from a terminal" }, { idempotencyKey: "main-1" });
  expect((await settle(client, reg.id)).outcome.outcome).toBe("succeeded");
  const unauthorized = await fetch(`${url}/api/v1/tasks/${reg.id}`);
  expect(unauthorized.status).toBe(401);
});
