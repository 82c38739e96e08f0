import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cutPoints, dubBudgets } from "../../../src/domain/generations/dub-parts";
import { cutSound, joinSound } from "../../../src/platform/ffmpeg/cut-and-join";
import { findSilences } from "../../../src/platform/ffmpeg/silences";
import { probe, speechLike } from "../../support/media-files";

/** Real ffmpeg on speech-like sound: tone bursts of 7 s with 1.5 s of silence after each. */
const burst = 7;
const period = 8.5;

describe("cutting a long file at its pauses, and joining the parts", () => {
  let dir: string;
  let source: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-cuts-"));
    source = join(dir, "talk.mp3");
    await speechLike(source, 16 * 60 + 20, { burst, gap: period - burst });
  }, 60_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("no cut falls inside a burst: each lies in a pause near the even split, every part at most 5 minutes", async () => {
    const silences = await findSilences("ffmpeg", source);
    // every gap is found (the last burst runs to the end)
    expect(silences.length).toBeGreaterThanOrEqual(Math.floor(980 / period) - 1);
    const { seconds } = await probe(source);
    const cuts = cutPoints(Math.round(seconds * 1000), silences);
    expect(cuts).toHaveLength(dubBudgets(seconds).length - 1);
    let previous = 0;
    for (const cut of cuts) {
      const at = (cut / 1000) % period;
      expect(at, `cut at ${cut} ms`).toBeGreaterThan(burst);
      expect(cut - previous).toBeLessThanOrEqual(300_000);
      previous = cut;
    }
  });

  test("the parts are at most 5 minutes each and join back into the file's length", async () => {
    const { seconds } = await probe(source);
    const cuts = cutPoints(Math.round(seconds * 1000), await findSilences("ffmpeg", source));
    const partsDir = join(dir, "parts");
    await rm(partsDir, { recursive: true, force: true });
    await mkdir(partsDir);
    await cutSound("ffmpeg", source, cuts, partsDir);
    const names = (await readdir(partsDir)).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    expect(names).toEqual(cuts.concat(0).map((_, i) => `${i}.mp3`));
    const lengths = await Promise.all(names.map(async (n) => (await probe(join(partsDir, n))).seconds));
    for (const length of lengths) expect(length).toBeLessThanOrEqual(300);
    const joined = join(dir, "joined.mp3");
    await joinSound(
      "ffmpeg",
      names.map((n) => join(partsDir, n)),
      joined,
    );
    expect(Math.abs((await probe(joined)).seconds - seconds)).toBeLessThan(1);
  });
});
