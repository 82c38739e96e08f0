import { existsSync, readFileSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { OperatorAccount } from "../../../sandbox/simulator/credits";
import { createFileStore } from "../../../sandbox/simulator/files";
import { probeMedia, sniffImage } from "../../../sandbox/simulator/media-probe";
import { pngSize, seededPicture } from "../../../sandbox/simulator/png";
import { wav } from "../../support/media-service";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../sandbox/simulator/fixtures/${name}`, import.meta.url));

describe("PNG output", () => {
  it("is a valid PNG whose pixel data inflates to height rows of width*3+1 bytes", () => {
    const png = seededPicture(30, 20, "seed");
    expect(pngSize(png)).toEqual({ width: 30, height: 20 });
    expect(sniffImage(png)).toBe("png");
    const idatLength = png.readUInt32BE(33);
    expect(png.toString("ascii", 37, 41)).toBe("IDAT");
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe(20 * (30 * 3 + 1));
  });

  it("is the same picture for the same seed, another for another", () => {
    expect(seededPicture(8, 8, "a").equals(seededPicture(8, 8, "a"))).toBe(true);
    expect(seededPicture(8, 8, "a").equals(seededPicture(8, 8, "b"))).toBe(false);
  });
});

describe("file store", () => {
  it("makes a file when it is added, keeps a few, and makes evicted ones again, identically", () => {
    const store = createFileStore(2);
    let made = 0;
    const names = ["a", "b", "c"].map((seed) =>
      store.add("png", "image/png", () => {
        made++;
        return seededPicture(4, 4, seed);
      }),
    );
    // made at once: a download after the task completed only reads it
    expect(made).toBe(3);
    store.get(names[2]!);
    expect(made).toBe(3);
    // the third evicted the first
    expect(store.get(names[0]!)).toMatchObject({ bytes: seededPicture(4, 4, "a") });
    expect(made).toBe(4);
    expect(store.get("nope.png")).toBeUndefined();
  });

  it("serves written files from its temporary directory, keeps no failed write, and removes it all at close", async () => {
    const store = createFileStore();
    const name = await store.addWritten("mp3", "audio/mpeg", (path) => writeFile(path, "dubbed"));
    const file = store.get(name);
    expect(file).toMatchObject({ contentType: "audio/mpeg", size: 6 });
    const path = file && "path" in file ? file.path : "";
    expect(readFileSync(path, "utf8")).toBe("dubbed");
    const dir = dirname(path);
    const source = await store.keep(Buffer.from("source"), "wav");
    expect(dirname(source)).toBe(dir);
    await expect(
      store.addWritten("mp4", "video/mp4", async (p) => {
        await writeFile(p, "half");
        throw new Error("ffmpeg failed");
      }),
    ).rejects.toThrow("ffmpeg failed");
    expect((await readdir(dir)).sort()).toEqual([name, basename(source)].sort());
    await store.discard(source);
    expect(await readdir(dir)).toEqual([name]);
    await store.close();
    expect(existsSync(dir)).toBe(false);
    await expect(store.keep(Buffer.from("late"), "wav")).rejects.toThrow("closed");
  });
});

describe("media probe", () => {
  it.each([
    ["audio.mp3", "mp3", false],
    ["video-16x9-audio.mp4", "mp4", true],
  ] as const)("%s is %s", async (name, format, hasVideo) => {
    const probe = await probeMedia(fixture(name));
    expect(probe).toMatchObject({ ok: true, format, hasVideo });
    expect(probe.ok && probe.durationSeconds).toBeCloseTo(2, 0);
  });

  it("measures a WAV", async () => {
    expect(await probeMedia(wav(7.5), "audio/wav")).toMatchObject({
      ok: true,
      format: "wav",
      durationSeconds: 7.5,
    });
  });

  it("refuses what is not audio or video", async () => {
    expect((await probeMedia(Buffer.from("hello world"))).ok).toBe(false);
  });
});

describe("operator account", () => {
  it("reserves, settles for less, releases, and refuses an overdraft", () => {
    const a = new OperatorAccount(100);
    expect(a.reserve(40)).toBe(true);
    expect(a.reserve(70)).toBe(false);
    expect(a.balance()).toEqual({ available: 60, reserved: 40, spent: 0 });
    a.settle(40, 30);
    expect(a.balance()).toEqual({ available: 70, reserved: 0, spent: 30 });
    a.reserve(20);
    a.release(20);
    expect(a.balance()).toEqual({ available: 70, reserved: 0, spent: 30 });
  });
});
