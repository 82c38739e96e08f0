import { describe, expect, test } from "vitest";
import { dubbingPrice } from "../../../sandbox/simulator/pricing";
import type { GenerationParams } from "../../../src/domain/generations/params";
import { quote, settle } from "../../../src/domain/generations/quote";
import { dubSourcePreparer, type SourceOutcome } from "../../../src/domain/generations/submit/dub-source";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { envSchema } from "../../../src/platform/config/config";
import type { Silence } from "../../../src/platform/ffmpeg/silences";
import type { StoredFile } from "../../../src/platform/storage/stored-file";
import { generationRow } from "../../support/generation-row";
import { pseudoRandomNumbers } from "../../support/pseudo-random";

/**
 * The operator never pays the service more for a dub than the user is
 * charged, and the user never more than the price shown: over random lengths
 * (5 minutes to DUB_MAX_MINUTES) and pause layouts, through the worker's own
 * decision and cut planner (`dubSourcePreparer`), with what the service bills
 * for each part as it bills (started minutes of the length it measures).
 */
const prices = createPrices(loadPriceTable());
const maxMinutes = envSchema.shape.DUB_MAX_MINUTES.parse(undefined);
const runs = 10_000;

/** The worker's preparation with the file's facts given: nothing read or written but the plan. */
function preparerFor(seconds: number, silences: Silence[]) {
  const input = { path: "in/source.mp3" } as unknown as StoredFile;
  let plan: unknown[] | null = null;
  return dubSourcePreparer({
    store: {
      findInput: async () => input,
      keepInput: async () => input,
      findParts: async () => plan,
      keepParts: async <P>(_id: string, fill: (dir: string) => Promise<P[]>) => {
        const made = await fill("parts");
        plan = made;
        return made;
      },
      withLocalFiles: (_files, use) => use(["/tmp/source.mp3"]),
    },
    prices,
    download: async () => ({ ok: true, value: { bytes: 0, contentType: "audio/mpeg" } }),
    telegramFile: async () => undefined,
    maxBytes: 2_000_000_000,
    maxMinutes,
    measure: async () => ({ seconds, hasVideo: false }),
    findSilences: async () => silences,
    cutSound: async () => undefined,
    inputUrl: async (id) => `https://bot.example/in/${id}`,
    logger: { info: () => undefined, warn: () => undefined },
  });
}

/** A layout of pauses: none, scattered, speech (talk and breath), or a few clustered anywhere. */
function pauses(random: () => number, durationMs: number): Silence[] {
  const between = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
  const kind = between(0, 3);
  const out: Silence[] = [];
  if (kind === 1) {
    for (let n = between(1, 150); n > 0; n--) {
      const startMs = between(0, durationMs);
      out.push({ startMs, endMs: Math.min(durationMs, startMs + between(300, 6_000)) });
    }
    out.sort((a, b) => a.startMs - b.startMs);
  } else if (kind === 2) {
    const talk = between(2_000, 40_000);
    const breath = between(300, 3_000);
    for (let at = talk; at < durationMs; at += talk + breath)
      out.push({ startMs: at, endMs: Math.min(durationMs, at + breath) });
  } else if (kind === 3) {
    for (let c = between(1, 5); c > 0; c--) {
      let at = between(0, durationMs);
      for (let n = between(1, 10); n > 0 && at < durationMs; n--) {
        const length = between(300, 2_000);
        out.push({ startMs: at, endMs: Math.min(durationMs, at + length) });
        at += length + between(500, 5_000);
      }
    }
    out.sort((a, b) => a.startMs - b.startMs);
  }
  return out;
}

interface Case {
  seconds: number;
  read: number;
  shown: number;
  upTo: boolean;
  parts: number[];
  billed: number;
  charged: number;
}

/** One dub: the length read before Confirm, the hold, the worker's cuts, the service's bill, the charge. */
async function dubOnce(random: () => number): Promise<Case | { refused: SourceOutcome; seconds: number }> {
  const durationMs = 300_000 + Math.floor(random() * (maxMinutes * 60_000 - 300_000 + 1));
  const seconds = durationMs / 1000;
  // Telegram and a link's probe say whole seconds: rounded down, or to the nearest
  const read = random() < 0.5 ? Math.floor(seconds) : Math.round(seconds);
  const shown = quote(prices, { operation: "dub", durationSeconds: read });
  if (!shown.ok) throw new Error("no dubbing price");
  const g = generationRow({ operation: "dub", price: shown.credits });
  const params: GenerationParams = {
    v: 1,
    operation: "dub",
    source: { kind: "url", url: "https://media.example/talk.mp3" },
    targetLanguage: "de",
    sourceLanguage: "auto",
    durationSeconds: read,
  };
  const outcome = await preparerFor(seconds, pauses(random, durationMs))(g, params);
  let measured: number[];
  let recorded: number | number[];
  if (outcome.kind === "whole") {
    measured = [seconds];
    recorded = seconds;
  } else if (outcome.kind === "parts") {
    // a cut part, encoded as MP3, may measure a frame or the encoder's padding longer
    measured = outcome.plan.map((p) => (p.endMs - p.startMs) / 1000 + random() * 0.06);
    // the worker keeps each part's measured length in whole seconds, rounded up (parts.ts)
    recorded = measured.map((s) => Math.ceil(s));
  } else return { refused: outcome, seconds };
  const billed = measured.reduce((sum, s) => sum + dubbingPrice(s), 0);
  const charged = settle(prices, params, g.price, {
    images: 0,
    videos: 0,
    audios: 1,
    measuredSeconds: recorded,
  });
  return { seconds, read, shown: shown.credits, upTo: shown.upTo === true, parts: measured, billed, charged };
}

describe("the margin of a dub, by construction", () => {
  test(`${runs} random lengths (5 minutes to DUB_MAX_MINUTES) and pause layouts: billed ≤ charged ≤ shown`, async () => {
    const random = pseudoRandomNumbers("dub-margin");
    const problems: string[] = [];
    let inParts = 0;
    for (let run = 0; run < runs; run++) {
      const c = await dubOnce(random);
      if ("refused" in c) {
        problems.push(`${c.seconds} s, read right, was refused: ${JSON.stringify(c.refused)}`);
        continue;
      }
      if (c.parts.length > 1) inParts++;
      const where = `${c.seconds} s read as ${c.read} s in parts ${c.parts.map((s) => s.toFixed(2)).join(" + ")}`;
      if (c.parts.some((s) => s > 300)) problems.push(`${where}: a part over the service's 5 minutes`);
      if (c.billed > c.charged)
        problems.push(`${where}: the service billed ${c.billed}, the user paid ${c.charged}`);
      if (c.charged > c.shown) problems.push(`${where}: charged ${c.charged} for a price of ${c.shown}`);
      // one honest price: without "up to" the charge is the price shown
      if (!c.upTo && c.charged !== c.shown)
        problems.push(`${where}: shown ${c.shown} (not "up to") but charged ${c.charged}`);
    }
    expect(inParts).toBeGreaterThan(runs * 0.9);
    expect(problems.slice(0, 5), `${problems.length} of ${runs} dubs broke the rule`).toEqual([]);
  }, 120_000);
});
