import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pngSize, seededPicture } from "../../../sandbox/simulator/png";
import { dubbingPerMinute, videoUnitPrice } from "../../../sandbox/simulator/pricing";
import { type Simulator, startSimulator } from "../../../sandbox/simulator/server";
import { scaledClock } from "../../../src/platform/lib/clock";
import { imageModels, type VideoModel, videoModels } from "../../../src/platform/media-service/catalog";
import { MediaServiceError } from "../../../src/platform/media-service/errors";
import { classifyTask } from "../../../src/platform/media-service/task-status";
import { parseWebhook } from "../../../src/platform/media-service/webhook";
import {
  clientFor,
  download,
  type FileHost,
  mediaInfo,
  quiet,
  rawPost,
  settle,
  startFileHost,
  startWebhookReceiver,
  waitFor,
  wav,
} from "../../support/media-service";

/**
 * The client against the simulator over HTTP, one test per rule of
 * ../shared/reference/media-service-api.md. The document's tables are
 * written out here again, so a wrong catalog fails these tests too.
 */

const run = promisify(execFile);
const clock = scaledClock(200);
const SECRET = "whsec_dGVzdC1zaWduaW5nLXNlY3JldC0xMjM0NTY3ODk=";
let sim: Simulator;
let files: FileHost;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let client: ReturnType<typeof clientFor>;
let png: string;
let key = 0;
const k = () => ({ idempotencyKey: `conformance-${++key}` });

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  files = await startFileHost();
  sim = await startSimulator({
    apiKey: "sim-key",
    clock,
    webhook: { url: hooks.url, signingSecret: SECRET },
  });
  client = clientFor(sim);
  png = files.put("/ref.png", seededPicture(64, 36, "reference"), "image/png");
});
afterAll(async () => {
  await sim.close();
  await files.close();
  await hooks.close();
});

async function expectRejected(path: string, body: unknown): Promise<string> {
  const res = await rawPost(sim, path, body);
  expect(res.status).toBe(400);
  expect(res.json.error?.code).toBe("invalid_request");
  return res.json.error?.message ?? "";
}

async function expectClientRejects(call: () => Promise<unknown>): Promise<void> {
  const before = sim.requests.length;
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaServiceError);
  expect((error as MediaServiceError).kind).toBe("invalid_request");
  expect(sim.requests.length).toBe(before); // refused before sending
}

describe("authentication (5)", () => {
  it.each([
    ["no key", undefined],
    ["a wrong key", "not-the-key"],
  ])("answers 401 to %s, and the client reports unauthorized", async (_name, apiKey) => {
    const res = await fetch(`${sim.url}/api/v1/tasks/anything`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    });
    expect(res.status).toBe(401);
    const bad = clientFor({ url: sim.url, apiKey: apiKey ?? "" });
    await expect(bad.createImage({ prompt: "x" }, k())).rejects.toMatchObject({
      kind: "unauthorized",
      status: 401,
      retryable: false,
    });
  });

  it("sends the key as a Bearer token on every request", async () => {
    const reg = await client.createImage({ prompt: "bearer" }, k());
    await client.getTask(reg.id);
    const mine = sim.requests.filter(
      (r) => r.body.includes('"bearer"') || r.path.endsWith(encodeURIComponent(reg.id)),
    );
    expect(mine.length).toBe(2);
    for (const r of mine) expect(r.headers.authorization).toBe("Bearer sim-key");
  });
});

describe("image generation (4.3)", () => {
  it("registers with id, status pending and credits_reserved, then completes with 9:16 PNGs", async () => {
    const reg = await client.createImage({ prompt: "a red lighthouse at dusk" }, k());
    expect(reg.status).toBe("pending");
    expect(reg.id).toEqual(expect.any(String));
    expect(reg.credits_reserved).toBeGreaterThan(0);
    const { task, outcome } = await settle(client, reg.id);
    expect(task.status).toBe("completed");
    expect(task.type).toBe("image");
    expect(task.model).toBe("nano-core-2");
    expect(outcome.outcome).toBe("succeeded");
    expect(task.images).toHaveLength(1);
    expect(task.videos).toEqual([]);
    expect(task.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(pngSize(await download(task.images[0]!))).toEqual({ width: 576, height: 1024 });
  });

  it("honours image_size, num_images and resolution for the beta-image and gamma families", async () => {
    const reg = await client.createImage(
      { prompt: "wide", model: "beta-image-2-5-flare", image_size: "16:9", resolution: "2K", num_images: 2 },
      k(),
    );
    const { task } = await settle(client, reg.id);
    expect(task.images).toHaveLength(2);
    expect(pngSize(await download(task.images[1]!))).toEqual({ width: 2048, height: 1152 });
  });

  it("ignores resolution on models with one quality", async () => {
    const reg = await client.createImage(
      { prompt: "square", model: "nano-lite", image_size: "1:1", resolution: "4K" },
      k(),
    );
    const { task } = await settle(client, reg.id);
    expect(pngSize(await download(task.images[0]!))).toEqual({ width: 1024, height: 1024 });
  });

  it("accepts every documented image model", async () => {
    for (const model of imageModels) {
      const res = await rawPost(sim, "/api/v1/images/generations", { prompt: "m", model });
      expect(res.status, model).toBe(200);
    }
  });
});

const path = {
  image: "/api/v1/images/generations",
  edit: "/api/v1/images/edits",
  video: "/api/v1/videos/generations",
  dub: "/api/v1/audio/dubbing",
} as const;

const tooManyKeys = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));

describe("every 400 invalid_request of the document, from the service and refused by the client", () => {
  const cases: Array<[string, keyof typeof path, Record<string, unknown>]> = [
    ["missing prompt", "image", {}],
    ["empty prompt", "image", { prompt: "  " }],
    ["unknown image model", "image", { prompt: "p", model: "nano-core-3" }],
    ["image_size not listed", "image", { prompt: "p", image_size: "4:3" }],
    ["resolution not listed", "image", { prompt: "p", resolution: "8K" }],
    ["num_images 0", "image", { prompt: "p", num_images: 0 }],
    ["num_images 5", "image", { prompt: "p", num_images: 5 }],
    ["num_images not an integer", "image", { prompt: "p", num_images: 1.5 }],
    ["metadata with 17 keys", "image", { prompt: "p", metadata: tooManyKeys }],
    ["a metadata value of 501 characters", "image", { prompt: "p", metadata: { a: "x".repeat(501) } }],
    ["a metadata value that is not a string", "image", { prompt: "p", metadata: { a: { nested: true } } }],
    ["edit without image_urls", "edit", { prompt: "p" }],
    ["edit with no image", "edit", { prompt: "p", image_urls: [] }],
    [
      "edit with 4 images",
      "edit",
      { prompt: "p", image_urls: ["a", "b", "c", "d"].map((n) => `https://x.test/${n}.png`) },
    ],
    ["edit with something that is not a URL", "edit", { prompt: "p", image_urls: ["not a url"] }],
    ["edit with num_images 5", "edit", { prompt: "p", image_urls: ["https://x.test/a.png"], num_images: 5 }],
    ["unknown video model", "video", { prompt: "p", model: "video-z" }],
    ["video resolution not a value", "video", { prompt: "p", resolution: "2160p" }],
    ["video aspect_ratio not a value", "video", { prompt: "p", aspect_ratio: "4:3" }],
    ["video duration not an integer", "video", { prompt: "p", duration: 5.5 }],
    ["auto aspect_ratio outside video-d-imagine", "video", { prompt: "p", aspect_ratio: "auto" }],
    ["1:1 on video-e-3.1", "video", { prompt: "p", model: "video-e-3.1", aspect_ratio: "1:1" }],
    ["generate_audio outside the video-b family", "video", { prompt: "p", generate_audio: true }],
    ["web_search outside the video-b family", "video", { prompt: "p", model: "video-c-3", web_search: true }],
    ["video metadata with 17 keys", "video", { prompt: "p", metadata: tooManyKeys }],
    ["dubbing without source_url", "dub", { target_language: "fa" }],
    ["dubbing without target_language", "dub", { source_url: "https://x.test/a.mp3" }],
    ["dubbing to an unlisted language", "dub", { source_url: "https://x.test/a.mp3", target_language: "xx" }],
    [
      "dubbing from an unlisted language",
      "dub",
      { source_url: "https://x.test/a.mp3", target_language: "fa", source_language: "xx" },
    ],
    [
      "dubbing with source equal to target",
      "dub",
      { source_url: "https://x.test/a.mp3", target_language: "en", source_language: "en" },
    ],
    [
      "dubbing metadata value too long",
      "dub",
      { source_url: "https://x.test/a.mp3", target_language: "en", metadata: { a: "y".repeat(501) } },
    ],
  ];

  it.each(cases)("%s", async (_name, op, body) => {
    await expectRejected(path[op], body);
    const call = {
      image: () => client.createImage(body as never, k()),
      edit: () => client.editImage(body as never, k()),
      video: () => client.createVideo(body as never, k()),
      dub: () => client.createDubbing(body as never, k()),
    }[op];
    await expectClientRejects(call);
  });

  it("a body that is not JSON", async () => {
    await expectRejected(path.image, "{not json");
  });

  it("the limits themselves are allowed: 16 keys, 500-character values, 3 images, 4 outputs", async () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, "é".repeat(500)]));
    const reg = await client.editImage(
      {
        prompt: "keep the sky, change the sea",
        image_urls: [png, png, png],
        num_images: 4,
        metadata: sixteen,
      },
      k(),
    );
    const { task } = await settle(client, reg.id);
    expect(task.images).toHaveLength(4);
    expect(task.metadata).toEqual(sixteen);
  });
});

/** Section 4.4, written out from the document. */
const documentVideoTable: Record<
  VideoModel,
  { durations: number[]; resolutions: string[]; aspects: string[] }
> = {
  "video-a-v3-turbo": {
    durations: range(3, 15),
    resolutions: ["720p", "1080p"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-b-2": {
    durations: range(4, 15),
    resolutions: ["480p", "720p", "1080p", "4k"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-c-3": {
    durations: range(2, 30),
    resolutions: ["480p", "720p", "1080p"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-c-3-prime": {
    durations: range(2, 30),
    resolutions: ["480p", "720p", "1080p"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-b-2-5": {
    durations: range(4, 30),
    resolutions: ["480p", "720p", "1080p"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-b-2-mini": {
    durations: range(4, 15),
    resolutions: ["480p", "720p"],
    aspects: ["16:9", "9:16", "1:1"],
  },
  "video-d-imagine": {
    durations: range(6, 15),
    resolutions: ["480p", "720p"],
    aspects: ["16:9", "9:16", "1:1", "auto"],
  },
  "video-e-3.1": { durations: [4, 6, 8], resolutions: ["720p", "1080p", "4k"], aspects: ["16:9", "9:16"] },
};
function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
const allResolutions = ["480p", "720p", "1080p", "4k"];
const allAspects = ["16:9", "9:16", "1:1", "auto"];

describe("video generation (4.4): each model's limits", () => {
  it("the catalog lists exactly the document's eight models", () => {
    expect(Object.keys(videoModels).sort()).toEqual(Object.keys(documentVideoTable).sort());
  });

  it.each(Object.entries(documentVideoTable))("%s", async (model, rule) => {
    const accepted = async (extra: Record<string, unknown>) =>
      (await rawPost(sim, path.video, { prompt: "p", model, ...extra })).status === 200;
    const acceptedDurations: number[] = [];
    for (const d of range(0, 32)) if (await accepted({ duration: d })) acceptedDurations.push(d);
    expect(acceptedDurations).toEqual(rule.durations);
    const acceptedResolutions: string[] = [];
    for (const r of allResolutions) if (await accepted({ resolution: r })) acceptedResolutions.push(r);
    expect(acceptedResolutions).toEqual(rule.resolutions);
    const acceptedAspects: string[] = [];
    for (const a of allAspects) if (await accepted({ aspect_ratio: a })) acceptedAspects.push(a);
    expect(acceptedAspects).toEqual(rule.aspects);
    // the outside values are refused by the client too, without a request
    await expectClientRejects(() =>
      client.createVideo({ prompt: "p", model: model as VideoModel, duration: 31 }, k()),
    );
    const badResolution = allResolutions.find((r) => !rule.resolutions.includes(r));
    if (badResolution) {
      await expectClientRejects(() =>
        client.createVideo(
          { prompt: "p", model: model as VideoModel, resolution: badResolution as "480p" },
          k(),
        ),
      );
    }
  });

  it("the defaults register without options, video-e-3.1 with its own (8 s, 16:9)", async () => {
    for (const model of Object.keys(documentVideoTable)) {
      expect((await rawPost(sim, path.video, { prompt: "p", model })).status, model).toBe(200);
    }
    const e = await client.createVideo({ prompt: "p", model: "video-e-3.1" }, k());
    const eight = await client.createVideo(
      { prompt: "p", model: "video-e-3.1", duration: 8, aspect_ratio: "16:9" },
      k(),
    );
    expect(e.credits_reserved).toBe(eight.credits_reserved);
  });

  it("registers with id, status, model, credits_reserved and created_at, and makes a playable MP4", async () => {
    const reg = await client.createVideo({ prompt: "a drone shot over dunes" }, k());
    expect(reg).toMatchObject({ status: "pending", model: "video-a-v3-turbo" });
    expect(reg.created_at).toMatch(/Z$/);
    const { task } = await settle(client, reg.id);
    expect(task.type).toBe("video");
    expect(task.videos).toHaveLength(1);
    const info = await mediaInfo(await download(task.videos[0]!));
    expect(info.container).toMatch(/isom|mp4/i);
    expect(info.hasVideo).toBe(true);
  });

  it("video-b family: credits_reserved is the resolution rate times the duration; generate_audio gives sound", async () => {
    const reg = await client.createVideo(
      {
        prompt: "rain",
        model: "video-b-2",
        resolution: "1080p",
        duration: 10,
        generate_audio: true,
        web_search: true,
      },
      k(),
    );
    expect(reg.credits_reserved).toBe(videoUnitPrice("video-b-2", "1080p") * 10);
    const { task } = await settle(client, reg.id);
    const info = await mediaInfo(await download(task.videos[0]!));
    expect(info.duration).toBeGreaterThan(0); // the audio track
  });

  it("a video lasts as long as ordered (ffmpeg on the PATH), not the 2-second fixture", async () => {
    for (const [model, duration] of [
      ["video-c-3", 12],
      ["video-a-v3-turbo", 5],
    ] as const) {
      const reg = await client.createVideo({ prompt: "waves", model, duration }, k());
      const { task } = await settle(client, reg.id);
      const dir = await mkdtemp(join(tmpdir(), "sim-video-"));
      try {
        const saved = join(dir, "video.mp4");
        await writeFile(saved, await download(task.videos[0]!));
        const { stdout } = await run("ffprobe", [
          ...["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", saved],
        ]);
        // cut at a frame of the looped fixture (15 fps): within a few frames of the order
        expect(Math.abs(Number(stdout) - duration), model).toBeLessThan(0.5);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it("sends 4K from the model table as the parameter value 4k", async () => {
    const reg = await client.createVideo(
      { prompt: "p", model: "video-e-3.1", resolution: "4K", duration: 4 },
      k(),
    );
    expect(reg.status).toBe("pending");
    const sent = sim.requests.findLast((r) => r.path === path.video);
    expect(JSON.parse(sent!.body).resolution).toBe("4k");
  });
});

describe("image editing (4.2)", () => {
  it("downloads the references and completes; the response names the model", async () => {
    const before = files.hits.length;
    const reg = await client.editImage(
      { prompt: "make it night", image_urls: [png], model: "nano-pro" },
      k(),
    );
    expect(reg).toMatchObject({ status: "pending", model: "nano-pro" });
    const { task, outcome } = await settle(client, reg.id);
    expect(outcome.outcome).toBe("succeeded");
    expect(task.images).toHaveLength(1);
    expect(files.hits.slice(before)).toContain("/ref.png");
  });

  it.each([
    ["missing", () => `${files.url}/gone.png`],
    ["login-protected", () => `${files.url}/private/ref.png`],
    ["unreachable", () => "http://127.0.0.1:9/ref.png"],
  ])("a %s reference fails the task with no credits deducted", async (_name, url) => {
    await quiet(sim);
    const before = sim.balance();
    const reg = await client.editImage({ prompt: "p", image_urls: [png, url()] }, k());
    const { task, outcome } = await settle(client, reg.id);
    expect(outcome.outcome).toBe("failed");
    expect(task.error).not.toBeNull();
    expect(task.credits_deducted).toBe(false);
    expect(task.credits_reserved).toBe(reg.credits_reserved);
    await quiet(sim);
    expect(sim.balance()).toEqual(before);
  });

  it("a reference that is not an image fails the task", async () => {
    const text = files.put("/notes.txt", Buffer.from("hello"), "text/plain");
    const reg = await client.editImage({ prompt: "p", image_urls: [text] }, k());
    expect((await settle(client, reg.id)).outcome.outcome).toBe("failed");
  });
});

describe("dubbing (4.1)", () => {
  it("registers with the documented shape, an id with ::, and the measured duration", async () => {
    const source = files.put("/speech.wav", wav(3), "audio/wav");
    const metadata = { gid: "g-1", chat: "-100123" };
    const reg = await client.createDubbing({ source_url: source, target_language: "fa", metadata }, k());
    expect(reg.id).toContain("::");
    expect(reg).toMatchObject({
      status: "pending",
      model: "dubbing-provider:fa",
      target_language: "fa",
      source_language: "auto",
      credits_reserved: dubbingPerMinute,
      metadata,
    });
    expect(reg.duration_seconds).toBeCloseTo(3, 1);
    expect(reg.created_at).toMatch(/Z$/);
    const { task } = await settle(client, reg.id);
    expect(task.prompt).toMatch(/Persian.*\(fa\)/);
    expect(task.audios).toHaveLength(1);
    expect((await mediaInfo(await download(task.audios[0]!))).duration).toBeGreaterThan(0);
  });

  it("looks a task with :: up by its URL-component-encoded id", async () => {
    const source = files.put("/short.wav", wav(1), "audio/wav");
    const reg = await client.createDubbing(
      { source_url: source, target_language: "de", source_language: "en" },
      k(),
    );
    const task = await client.getTask(reg.id);
    expect(task.id).toBe(reg.id);
    const lookup = sim.requests.findLast((r) => r.method === "GET" && r.path.startsWith("/api/v1/tasks/"));
    expect(lookup!.path).toBe(`/api/v1/tasks/${encodeURIComponent(reg.id)}`);
    expect(lookup!.path).toContain("%3A%3A");
    expect(reg.source_language).toBe("en");
  });

  it("video input gives type video and the dubbed video in videos", async () => {
    const mp4 = readFileSync(
      new URL("../../../sandbox/simulator/fixtures/video-16x9-audio.mp4", import.meta.url),
    );
    const source = files.put("/clip.mp4", mp4, "video/mp4");
    const reg = await client.createDubbing({ source_url: source, target_language: "es" }, k());
    expect(reg.type).toBe("video");
    const { task } = await settle(client, reg.id);
    expect(task.type).toBe("video");
    expect(task.videos).toHaveLength(1);
  });

  it("bills per started minute: 61 s reserves two minutes", async () => {
    const source = files.put("/minute.wav", wav(61), "audio/wav");
    const reg = await client.createDubbing({ source_url: source, target_language: "ar" }, k());
    expect(reg.credits_reserved).toBe(2 * dubbingPerMinute);
  });

  it("refuses an input longer than 5 minutes with invalid_request", async () => {
    const source = files.put("/long.wav", wav(301), "audio/wav");
    await expect(
      client.createDubbing({ source_url: source, target_language: "en" }, k()),
    ).rejects.toMatchObject({
      kind: "invalid_request",
      status: 400,
      code: "invalid_request",
    });
  });

  it("refuses a file that is not one of the formats", async () => {
    const source = files.put("/picture.png", seededPicture(32, 32, "not audio"), "image/png");
    await expect(
      client.createDubbing({ source_url: source, target_language: "en" }, k()),
    ).rejects.toMatchObject({
      kind: "invalid_request",
      status: 400,
    });
  });

  it("an undownloadable source fails the task with no deduction", async () => {
    await quiet(sim);
    const before = sim.balance();
    const reg = await client.createDubbing(
      { source_url: `${files.url}/private/speech.wav`, target_language: "fa" },
      k(),
    );
    expect(reg.status).toBe("pending");
    const { task, outcome } = await settle(client, reg.id);
    expect(outcome.outcome).toBe("failed");
    expect(task.credits_deducted).toBe(false);
    await quiet(sim);
    expect(sim.balance()).toEqual(before);
  });

  describe("an output as long as its input (ffmpeg on the PATH)", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "simulator-dubbing-"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const ffmpeg = (...args: string[]) =>
      run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", ...args]);

    interface Probed {
      format: { format_name: string; duration: string };
      streams: Array<{
        codec_type: string;
        codec_name: string;
        width?: number;
        height?: number;
        channels?: number;
        nb_frames?: string;
      }>;
    }
    async function probe(path: string): Promise<Probed> {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-of", "json"],
        ...[
          "-show_entries",
          "format=format_name,duration:stream=codec_type,codec_name,width,height,channels,nb_frames",
        ],
        path,
      ]);
      return JSON.parse(stdout) as Probed;
    }

    /** Dubs the file at `input` and returns the output's content type and where it was saved. */
    async function dub(input: string, contentType: string, outputs: "audios" | "videos") {
      const source = files.put(`/${basename(input)}`, await readFile(input), contentType);
      const reg = await client.createDubbing({ source_url: source, target_language: "fa" }, k());
      const { task, outcome } = await settle(client, reg.id);
      expect(outcome.outcome).toBe("succeeded");
      expect(task[outputs]).toHaveLength(1);
      const res = await fetch(task[outputs]![0]!);
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      const saved = join(dir, `dubbed-${basename(input)}`);
      await writeFile(saved, bytes);
      return { contentType: res.headers.get("content-type"), saved, registered: reg.duration_seconds };
    }

    it("a 7-second audio input is dubbed into a 7-second MP3", async () => {
      const input = join(dir, "seven.wav");
      await ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:sample_rate=16000:duration=7", input);
      const out = await dub(input, "audio/wav", "audios");
      expect(out.registered).toBeCloseTo(7, 1);
      expect(out.contentType).toBe("audio/mpeg");
      const { format, streams } = await probe(out.saved);
      expect(format.format_name).toBe("mp3");
      expect(streams.map((s) => s.codec_name)).toEqual(["mp3"]);
      expect(Math.abs(Number(format.duration) - 7)).toBeLessThanOrEqual(0.3);
    });

    it("a 6-second video input keeps its picture and gets a new sound track, 6 seconds long", async () => {
      const input = join(dir, "six.mp4");
      await ffmpeg(
        ...["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=6"],
        ...["-f", "lavfi", "-i", "sine=frequency=330:duration=6"],
        ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
        ...["-c:a", "aac", "-ac", "2", "-shortest", input],
      );
      const out = await dub(input, "video/mp4", "videos");
      expect(out.contentType).toBe("video/mp4");
      const before = await probe(input);
      const after = await probe(out.saved);
      expect(after.format.format_name).toContain("mp4");
      expect(Math.abs(Number(after.format.duration) - 6)).toBeLessThanOrEqual(0.3);
      const picture = (p: Probed) => p.streams.find((s) => s.codec_type === "video");
      // copied, not encoded again: the same codec, size and frames
      expect(picture(after)).toEqual(picture(before));
      expect(picture(after)).toMatchObject({ codec_name: "h264", width: 320, height: 240, nb_frames: "150" });
      // the new track is the simulator's mono one, not the stereo original
      expect(after.streams.find((s) => s.codec_type === "audio")).toMatchObject({
        codec_name: "aac",
        channels: 1,
      });
    });

    it("a source ffmpeg cannot decode fails the task with ffmpeg's message and no deduction", async () => {
      const odd = wav(3);
      odd.writeUInt16LE(0x1234, 20); // a WAV of an unknown codec: measurable, not decodable
      const source = files.put("/odd.wav", odd, "audio/wav");
      await quiet(sim);
      const before = sim.balance();
      const reg = await client.createDubbing({ source_url: source, target_language: "fa" }, k());
      expect(reg.duration_seconds).toBe(3);
      const { task, outcome } = await settle(client, reg.id);
      expect(outcome).toMatchObject({
        outcome: "failed",
        reason: expect.stringMatching(/^processing_failed: .*Decoder \(codec none\) not found/),
      });
      expect(task.audios).toEqual([]);
      await quiet(sim);
      expect(sim.balance()).toEqual(before);
    });

    it("a WebM video stays a WebM, its VP8 picture copied (MP4 cannot carry it)", async () => {
      const input = join(dir, "three.webm");
      await ffmpeg(
        ...["-f", "lavfi", "-i", "testsrc=size=160x120:rate=15:duration=3"],
        ...["-f", "lavfi", "-i", "sine=frequency=330:duration=3"],
        ...["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k"],
        ...["-c:a", "libvorbis", input],
      );
      const out = await dub(input, "video/webm", "videos");
      expect(out.contentType).toBe("video/webm");
      const after = await probe(out.saved);
      expect(after.format.format_name).toContain("webm");
      expect(Math.abs(Number(after.format.duration) - 3)).toBeLessThanOrEqual(0.3);
      expect(after.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
        ["video", "vp8"],
        ["audio", "opus"],
      ]);
    });
  });
});

describe("credits (1, 3)", () => {
  it("on success: reserved at registration, deducted on completion", async () => {
    await quiet(sim);
    const before = sim.balance();
    const reg = await client.createImage({ prompt: "p", num_images: 3 }, k());
    expect(sim.balance().reserved - before.reserved).toBe(reg.credits_reserved);
    const { task } = await settle(client, reg.id);
    expect(task.credits_reserved).toBe(reg.credits_reserved);
    expect(task.credits_deducted).toBe(true);
    await quiet(sim);
    expect(sim.balance().spent - before.spent).toBe(reg.credits_reserved);
  });

  it("on failure: not deducted, the reservation is released", async () => {
    sim.faults.nextTask({ operation: "image", fail: { code: "model_error", message: "boom" } });
    await quiet(sim);
    const before = sim.balance();
    const reg = await client.createImage({ prompt: "p" }, k());
    const { task, outcome } = await settle(client, reg.id);
    expect(outcome).toMatchObject({ outcome: "failed", reason: "model_error: boom" });
    expect(task.credits_deducted).toBe(false);
    expect(task.credits_reserved).toBeGreaterThan(0);
    await quiet(sim);
    expect(sim.balance()).toEqual(before);
  });

  it("without enough operator credits the create is refused as payment_required", async () => {
    const poor = await startSimulator({ apiKey: "k2", clock, operatorCredits: 1 });
    try {
      await expect(clientFor(poor).createImage({ prompt: "p" }, k())).rejects.toMatchObject({
        kind: "payment_required",
        status: 402,
        retryable: false,
      });
      expect(poor.tasks()).toEqual([]);
    } finally {
      await poor.close();
    }
  });
});

describe("metadata and the task.completed webhook (2.2, 6)", () => {
  it("echoes metadata unchanged in the task and in a signed webhook", async () => {
    const metadata = { gid: "0b8f…", chat: "-1001234567890", topic: "7", note: "سلام 👋", empty: "" };
    const reg = await client.createImage({ prompt: "p", metadata }, k());
    const { task } = await settle(client, reg.id);
    expect(task.metadata).toEqual(metadata);
    const hook = await waitFor(() => hooks.received.find((h) => h.body.includes(reg.id)));
    const parsed = parseWebhook(hook.body, hook.headers, { signingSecret: SECRET, now: () => clock.now() });
    expect(parsed).toMatchObject({
      ok: true,
      event: "task.completed",
      taskId: reg.id,
      metadata,
      signature: "valid",
    });
  });

  it("rejects a tampered body, a wrong secret and a missing signature when a secret is configured", async () => {
    const reg = await client.createImage({ prompt: "p", metadata: { gid: "tamper" } }, k());
    await settle(client, reg.id);
    const hook = await waitFor(() => hooks.received.find((h) => h.body.includes(reg.id)));
    const now = () => clock.now();
    const tampered = hook.body.replace('"tamper"', '"forged"');
    expect(parseWebhook(tampered, hook.headers, { signingSecret: SECRET, now }).ok).toBe(false);
    expect(parseWebhook(hook.body, hook.headers, { signingSecret: "whsec_b3RoZXI=", now }).ok).toBe(false);
    const { "webhook-signature": _, ...unsigned } = hook.headers;
    expect(parseWebhook(hook.body, unsigned, { signingSecret: SECRET, now }).ok).toBe(false);
    // and it is only an extra check: without a configured secret the body is read as is
    expect(parseWebhook(hook.body, unsigned, {})).toMatchObject({
      ok: true,
      taskId: reg.id,
      signature: "not_configured",
    });
  });

  it("is sent for completion only, not for a failed task", async () => {
    sim.faults.nextTask({ operation: "video", fail: true });
    const reg = await client.createVideo({ prompt: "p" }, k());
    const ok = await client.createVideo({ prompt: "q" }, k());
    await settle(client, reg.id);
    await settle(client, ok.id);
    await waitFor(() => hooks.received.find((h) => h.body.includes(ok.id)));
    expect(hooks.received.some((h) => h.body.includes(reg.id))).toBe(false);
  });
});

describe("the video time limit (3, 8) on a fast clock", () => {
  it("a video processing longer than 15 minutes fails and releases its credits", async () => {
    // 300 times real time: 15 minutes in 3 s, and 3 s of slack before the 30-minute bound
    // (at 5,000 times a timer firing 0.7 s late on a loaded machine read as 75 minutes)
    const fast = scaledClock(300);
    const slow = await startSimulator({ apiKey: "k3", clock: fast, latencyMs: { video: 20 * 60_000 } });
    try {
      const c = clientFor(slow);
      const before = slow.balance();
      const created = fast.now();
      const reg = await c.createVideo({ prompt: "an epic" }, k());
      const { task, outcome } = await settle(c, reg.id);
      expect(outcome.outcome).toBe("failed");
      expect(task.credits_deducted).toBe(false);
      const failedAfter = Date.parse(task.completed_at!) - created;
      // "about 15 minutes": a timer of the fast clock may fire slightly early
      expect(failedAfter).toBeGreaterThanOrEqual(14 * 60_000);
      // the fast clock's timers fire late on a loaded machine: "about" 15, never an hour
      expect(failedAfter).toBeLessThan(30 * 60_000);
      expect(slow.balance()).toEqual(before);
    } finally {
      await slow.close();
    }
  });
});

describe("task lookup (4.5)", () => {
  it("an unknown id is a 404, not retried", async () => {
    const before = sim.requests.length;
    await expect(client.getTask("no-such-task")).rejects.toMatchObject({ status: 404, retryable: false });
    expect(sim.requests.length - before).toBe(1);
  });

  it("classifies the live task as running while pending", async () => {
    sim.faults.nextTask({ operation: "image", extraLatencyMs: 60_000 });
    const reg = await client.createImage({ prompt: "p" }, k());
    expect(classifyTask(await client.getTask(reg.id))).toEqual({ outcome: "running", status: "pending" });
  });
});
