import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  clientFor,
  download,
  type FileHost,
  mediaInfo,
  settle,
  startFileHost,
  waitFor,
  wav,
} from "../../support/media-service";

/** `npm run simulator` (sandbox/simulator/main.ts): starts on a port a person can curl, and prints URL and key. */

let child: ChildProcess | undefined;
let files: FileHost;
let scratch: string;
beforeAll(async () => {
  files = await startFileHost();
  scratch = await mkdtemp(join(tmpdir(), "simulator-main-"));
});
afterEach(() => {
  child?.kill("SIGTERM");
  child = undefined;
});
afterAll(async () => {
  await files.close();
  await rm(scratch, { recursive: true, force: true });
});

function startMain(env: Record<string, string>) {
  const started = spawn(process.execPath, ["--import", "tsx", "sandbox/simulator/main.ts"], {
    env: { ...process.env, PORT: "0", SIMULATOR_LATENCY_MS: "50", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = started;
  const exited = new Promise<number | null>((resolve) => started.once("exit", (code) => resolve(code)));
  let out = "";
  started.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  return { output: () => out, exited, stop: () => started.kill("SIGTERM") };
}

/** the simulator's temporary directories under `temp` (tsx keeps its cache there too) */
const simulatorDirs = async (temp: string) =>
  (await readdir(temp)).filter((name) => name.startsWith("media-simulator-"));

const listening = (output: () => string) =>
  waitFor(() => /listening on (http:\/\/\S+)/.exec(output())?.[1], 20_000);

it("starts from the environment, prints its URL and key, and serves the API", async () => {
  const main = startMain({ SIMULATOR_API_KEY: "curl-me" });
  const url = await listening(main.output);
  // the key is printed on a line of its own, which may come in a later chunk
  await waitFor(() => (main.output().includes("API key:") ? true : undefined), 5_000);
  expect(main.output()).toContain("API key: curl-me");
  const client = clientFor({ url, apiKey: "curl-me" });
  const reg = await client.createImage({ prompt: "from a terminal" }, { idempotencyKey: "main-1" });
  expect((await settle(client, reg.id)).outcome.outcome).toBe("succeeded");
  const unauthorized = await fetch(`${url}/api/v1/tasks/${reg.id}`);
  expect(unauthorized.status).toBe(401);
});

it("writes a dubbed output to a temporary directory of its own and removes it when stopped", async () => {
  const temp = join(scratch, "with-ffmpeg");
  await mkdir(temp);
  const main = startMain({ SIMULATOR_API_KEY: "dub-me", TMPDIR: temp });
  const client = clientFor({ url: await listening(main.output), apiKey: "dub-me" });
  const source = files.put("/five.wav", wav(5), "audio/wav");
  const reg = await client.createDubbing(
    { source_url: source, target_language: "fa" },
    { idempotencyKey: "main-dub" },
  );
  const { task } = await settle(client, reg.id);
  const output = task.audios![0]!;
  expect((await mediaInfo(await download(output))).duration).toBeCloseTo(5, 0);
  const [own, ...more] = await simulatorDirs(temp);
  expect(own).toBeDefined();
  expect(more).toEqual([]);
  // the output; the source goes once the task has ended
  const name = output.split("/").pop();
  await waitFor(async () => {
    const left = await readdir(join(temp, own!));
    return left.length === 1 && left[0] === name ? true : undefined;
  });
  main.stop();
  expect(await main.exited).toBe(0);
  expect(await simulatorDirs(temp)).toEqual([]);
});

it("without ffmpeg on the PATH, says so once and dubs into the 2-second fixture", async () => {
  const temp = join(scratch, "without-ffmpeg");
  await mkdir(temp);
  // node is started by its full path; the PATH holds nothing
  const main = startMain({ SIMULATOR_API_KEY: "no-ffmpeg", LOG_LEVEL: "info", PATH: temp, TMPDIR: temp });
  const client = clientFor({ url: await listening(main.output), apiKey: "no-ffmpeg" });
  const source = files.put("/seven.wav", wav(7), "audio/wav");
  const reg = await client.createDubbing(
    { source_url: source, target_language: "de" },
    { idempotencyKey: "main-fixture" },
  );
  const { task } = await settle(client, reg.id);
  expect((await mediaInfo(await download(task.audios![0]!))).duration).toBeCloseTo(2, 0);
  const said = main
    .output()
    .split("\n")
    .filter((line) => line.includes("ffmpeg is not on the PATH"));
  expect(said).toHaveLength(1);
  expect(JSON.parse(said[0]!)).toMatchObject({ level: 30 });
  expect(await simulatorDirs(temp)).toEqual([]);
});
