import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { GenerationParams } from "../../../src/domain/generations/params";
import { quote } from "../../../src/domain/generations/quote";
import { type DubSourceDeps, dubSourcePreparer } from "../../../src/domain/generations/submit/dub-source";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { cutSound } from "../../../src/platform/ffmpeg/cut-and-join";
import { findSilences } from "../../../src/platform/ffmpeg/silences";
import { measureMediaFile } from "../../../src/platform/links/measure-file";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { partPath } from "../../../src/platform/storage/stored-file";
import { generationRow } from "../../support/generation-row";
import { speechLike } from "../../support/media-files";

/** The submit stage's preparation of a dub's source, on real files and real ffmpeg. */
const prices = createPrices(loadPriceTable());
const priceOf = (seconds: number) => {
  const q = quote(prices, { operation: "dub", durationSeconds: seconds });
  return q.ok ? q.credits : 0;
};

describe("a dub's source kept, measured, and cut when long", () => {
  let dir: string;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-source-"));
    for (const [name, seconds] of [
      ["short", 90],
      ["long", 420],
    ] as const) {
      files[name] = join(dir, `${name}.mp3`);
      await speechLike(files[name]!, seconds);
    }
  }, 60_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  function preparer(ffmpeg = "ffmpeg", overrides: Partial<DubSourceDeps> = {}) {
    const calls = { silences: 0, downloads: 0 };
    const store = createMediaStore(join(dir, `store-${Math.random()}`));
    const prepare = dubSourcePreparer({
      store,
      prices,
      download: async (link, destination) => {
        calls.downloads++;
        await copyFile(files[new URL(link).pathname.slice(1)]!, destination);
        return { ok: true, value: { bytes: 0, contentType: "audio/mpeg" } };
      },
      telegramFile: async () => {
        throw new Error("not used");
      },
      maxBytes: 2_000_000_000,
      maxMinutes: 60,
      measure: measureMediaFile,
      findSilences: (path) => {
        calls.silences++;
        return findSilences(ffmpeg, path);
      },
      cutSound: (path, cuts, out) => cutSound(ffmpeg, path, cuts, out),
      inputUrl: async (id) => `https://bot.example/files/in-${id}`,
      logger: { info: () => undefined, warn: () => undefined },
      ...overrides,
    });
    return { prepare, calls, store };
  }

  const dubOf = (name: string, seconds: number): GenerationParams => ({
    v: 1,
    operation: "dub",
    source: { kind: "url", url: `https://media.example/${name}` },
    targetLanguage: "de",
    sourceLanguage: "auto",
    durationSeconds: seconds,
  });

  test("within 5 minutes the kept copy goes whole, by our own link", async () => {
    const { prepare } = preparer();
    const g = generationRow({ operation: "dub", price: priceOf(90) });
    const out = await prepare(g, dubOf("short", 90));
    expect(out).toMatchObject({ kind: "whole", url: `https://bot.example/files/in-${g.id}` });
  });

  test("past 5 minutes it is cut into kept parts; a second run (after a crash) takes them as kept", async () => {
    const { prepare, calls, store } = preparer();
    const g = generationRow({ operation: "dub", price: priceOf(420) });
    const first = await prepare(g, dubOf("long", 420));
    expect(first.kind).toBe("parts");
    if (first.kind !== "parts") return;
    expect(first.plan).toHaveLength(2);
    expect(first.plan[1]!.endMs).toBeGreaterThan(419_000);
    expect(await store.existing(partPath(g.id, 1))).not.toBeNull();
    const again = await prepare(g, dubOf("long", 420));
    expect(again).toEqual(first);
    expect(calls).toEqual({ silences: 1, downloads: 1 });
  });

  test("longer than DUB_MAX_MINUTES, or than its hold covers: refused before anything is sent", async () => {
    const short = preparer("ffmpeg", { maxMinutes: 5 });
    const g = generationRow({ operation: "dub", price: 1_000 });
    expect(await short.prepare(g, dubOf("long", 420))).toMatchObject({
      kind: "refused",
      error: { reason: "source_too_long", maxMinutes: 5 },
    });
    const cheap = generationRow({ operation: "dub", price: priceOf(90) });
    expect(await preparer().prepare(cheap, dubOf("long", 90))).toMatchObject({
      kind: "refused",
      error: { reason: "source_longer", needed: priceOf(420) },
    });
  });

  test("without ffmpeg on the machine a long file is refused with its reason, a short one still goes whole", async () => {
    const { prepare } = preparer("ffmpeg-not-installed");
    const g = generationRow({ operation: "dub", price: priceOf(420) });
    expect(await prepare(g, dubOf("long", 420))).toMatchObject({
      kind: "refused",
      error: { reason: "source_uncut" },
    });
    const short = generationRow({ operation: "dub", price: priceOf(90) });
    expect((await prepare(short, dubOf("short", 90))).kind).toBe("whole");
  });
});
