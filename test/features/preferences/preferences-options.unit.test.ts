import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Conv } from "../../../src/bot/conversations/screen";
import { fitImageOptions } from "../../../src/domain/generations/image-options";
import { generationParams } from "../../../src/domain/generations/params";
import { upscaleModel } from "../../../src/domain/generations/upscale";
import { fitVideoOptions } from "../../../src/domain/generations/video-options";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import {
  dubLanguagesFrom,
  dubLanguagesOfStored,
  imageOptionsOfStored,
  rememberedOf,
  videoOptionsOfStored,
} from "../../../src/features/preferences/options";
import { readRemembered, rememberConfirmed } from "../../../src/features/requests/remembered";
import {
  allowedDurations,
  defaultImageModel,
  defaultImageSize,
  defaultVideoModel,
  dubbingLanguages,
  imageModelInfo,
  imageModels,
  imageSizes,
  videoModelIds,
  videoModelInfo,
} from "../../../src/platform/media-service/catalog";

/** Anything JSON can hold: what a jsonb column may contain after years of releases. */
const junk = fc.jsonValue();

describe("remembered options: params → stored", () => {
  test("image and edit keep model, ratio, resolution, count; never the prompt or the pictures", () => {
    const image = generationParams.parse({
      operation: "image",
      prompt: "a cat",
      model: "gamma-5-pro",
      imageSize: "1:1",
      resolution: "2K",
      numImages: 3,
    });
    expect(rememberedOf(image)).toEqual({
      operation: "image",
      options: { model: "gamma-5-pro", imageSize: "1:1", resolution: "2K", numImages: 3 },
    });
    const edit = generationParams.parse({
      operation: "edit",
      prompt: "purple sky",
      images: [{ kind: "telegram", fileId: "f" }],
      model: "nano-pro",
      imageSize: "16:9",
      numImages: 1,
    });
    expect(rememberedOf(edit)).toEqual({
      operation: "edit",
      options: { model: "nano-pro", imageSize: "16:9", numImages: 1 },
    });
  });

  test("video keeps model, duration, resolution, ratio and sound; dub its two languages", () => {
    expect(
      rememberedOf({
        operation: "video",
        prompt: "waves",
        model: "video-b-2",
        duration: 6,
        resolution: "1080p",
        aspectRatio: "16:9",
        generateAudio: true,
        webSearch: true,
      }),
    ).toEqual({
      operation: "video",
      options: {
        model: "video-b-2",
        duration: 6,
        resolution: "1080p",
        aspectRatio: "16:9",
        generateAudio: true,
      },
    });
    expect(
      rememberedOf({
        operation: "dub",
        source: { kind: "url", url: "https://example.com/a.mp3" },
        targetLanguage: "de",
      }),
    ).toEqual({ operation: "dub", options: { targetLanguage: "de", sourceLanguage: "auto" } });
  });

  test("what is stored reads back as the options that were confirmed (image, every valid choice)", () => {
    const valid = fc
      .record({
        model: fc.constantFrom(...imageModels),
        imageSize: fc.constantFrom(...imageSizes),
        resolution: fc.constantFrom("1K", "2K", "4K"),
        numImages: fc.integer({ min: 1, max: 4 }),
      })
      .map((o) => fitImageOptions(o, o.model));
    fc.assert(
      fc.property(valid, (o) => {
        const params = generationParams.parse({ operation: "image", prompt: "p", ...o });
        const stored = JSON.parse(JSON.stringify(rememberedOf(params).options)) as unknown;
        expect(imageOptionsOfStored(stored)).toEqual(o);
      }),
    );
  });

  test("what is stored reads back as the options that were confirmed (video, every valid choice)", () => {
    const valid = fc
      .record({
        model: fc.constantFrom(...videoModelIds),
        duration: fc.integer({ min: 1, max: 30 }),
        aspectRatio: fc.constantFrom("16:9", "9:16", "1:1", "auto" as const),
        resolution: fc.constantFrom("480p", "720p", "1080p", "4k" as const),
        generateAudio: fc.boolean(),
      })
      .map((o) => fitVideoOptions({ ...o, webSearch: false }, o.model));
    fc.assert(
      fc.property(valid, (o) => {
        const stored = JSON.parse(
          JSON.stringify(rememberedOf({ operation: "video", prompt: "p", ...o }).options),
        ) as unknown;
        expect(videoOptionsOfStored(stored)).toEqual(o);
      }),
    );
  });
});

describe("remembered options: stored → options, against today's catalog", () => {
  test("a model since removed, a ratio unknown, a count out of range: each falls back on its own", () => {
    expect(
      imageOptionsOfStored({ model: "gone-model", imageSize: "5:4", resolution: "8K", numImages: 9 }),
    ).toEqual(
      fitImageOptions(
        { model: defaultImageModel, imageSize: defaultImageSize, resolution: undefined, numImages: 1 },
        defaultImageModel,
      ),
    );
    // the count is kept while the model is still there
    expect(imageOptionsOfStored({ model: "nano-pro", imageSize: 7, numImages: 2 })).toMatchObject({
      model: "nano-pro",
      imageSize: defaultImageSize,
      numImages: 2,
    });
    expect(
      videoOptionsOfStored({ model: "video-e-3.1", duration: 5, resolution: "480p", aspectRatio: "1:1" }),
    ).toEqual(fitVideoOptions({}, "video-e-3.1"));
    expect(videoOptionsOfStored({ model: 42 })).toEqual(fitVideoOptions({}, defaultVideoModel));
  });

  test("nothing usable stored (null, a number, a list, a string) reads as nothing: the defaults apply", () => {
    for (const stored of [undefined, null, 3, "image", [1, 2], true]) {
      expect(imageOptionsOfStored(stored)).toBeUndefined();
      expect(videoOptionsOfStored(stored)).toBeUndefined();
      expect(dubLanguagesOfStored(stored, "en")).toBeUndefined();
    }
  });

  test("any junk: never throws, and what comes out is always valid for its model", () => {
    fc.assert(
      fc.property(junk, (stored) => {
        const image = imageOptionsOfStored(stored);
        if (image) {
          expect(imageModels).toContain(image.model);
          expect(imageSizes).toContain(image.imageSize);
          expect(image.numImages).toBeGreaterThanOrEqual(1);
          expect(image.numImages).toBeLessThanOrEqual(4);
          const qualities: readonly string[] = imageModelInfo[image.model].qualities;
          if (qualities.length === 0) expect(image.resolution).toBeUndefined();
          else expect(qualities).toContain(image.resolution);
        }
        const video = videoOptionsOfStored(stored);
        if (video) {
          const info = videoModelInfo(video.model);
          expect(allowedDurations(video.model)).toContain(video.duration);
          expect(info.resolutions).toContain(video.resolution);
          expect(info.aspectRatios).toContain(video.aspectRatio);
        }
        const dub = dubLanguagesOfStored(stored, "fa");
        if (dub) {
          expect(dubbingLanguages).toContain(dub.target);
          expect(dub.source === "auto" || dubbingLanguages.includes(dub.source)).toBe(true);
          expect(dub.source).not.toBe(dub.target);
        }
      }),
    );
  });

  test("junk fields inside a stored object: same guarantees", () => {
    const record = fc.record({
      model: junk,
      imageSize: junk,
      resolution: junk,
      numImages: junk,
      duration: junk,
      aspectRatio: junk,
      generateAudio: junk,
      targetLanguage: junk,
      sourceLanguage: junk,
    });
    fc.assert(
      fc.property(record, (stored) => {
        const image = imageOptionsOfStored(stored);
        expect(image).toBeDefined();
        expect(imageModels).toContain(image?.model);
        const video = videoOptionsOfStored(stored);
        expect(video && allowedDurations(video.model)).toContain(video?.duration);
        const dub = dubLanguagesOfStored(stored, "de");
        expect(dub?.source).not.toBe(dub?.target);
      }),
    );
  });

  test("dubbing: an unknown target is the fallback; a source equal to the target becomes auto", () => {
    expect(dubLanguagesFrom({ targetLanguage: "xx", sourceLanguage: "fr" }, "fa")).toEqual({
      target: "fa",
      source: "fr",
    });
    expect(dubLanguagesFrom({ targetLanguage: "de", sourceLanguage: "de" }, "fa")).toEqual({
      target: "de",
      source: "auto",
    });
    expect(dubLanguagesOfStored({ targetLanguage: "es", sourceLanguage: "en" }, "fa")).toEqual({
      target: "es",
      source: "en",
    });
  });
});

describe("higher resolution", () => {
  test("the cheapest model that makes 4K pictures at today's prices", () => {
    const prices = createPrices(loadPriceTable());
    const model = upscaleModel(prices);
    expect(model).toBeDefined();
    expect(imageModelInfo[model!].qualities).toContain("4K");
    const cost = (m: (typeof imageModels)[number]) => {
      const q = prices.image(m, "4K", 1);
      return q.ok ? q.credits : Number.POSITIVE_INFINITY;
    };
    for (const other of imageModels.filter((m) => imageModelInfo[m].qualities.includes("4K")))
      expect(cost(model!)).toBeLessThanOrEqual(cost(other));
  });
});

describe("reading remembered options in a conversation", () => {
  /** A conversation whose `external` runs at once, with a logger that records warnings. */
  function fakeConversation() {
    const warnings: string[] = [];
    const outer = { logger: { warn: (_: unknown, message: string) => void warnings.push(message) } };
    const conversation = {
      external: <R>(task: (ctx: typeof outer) => Promise<R> | R) => Promise.resolve(task(outer)),
    } as unknown as Conv;
    return { conversation, warnings };
  }

  test("a database hiccup starts from the defaults with a warning, never stops the request", async () => {
    const { conversation, warnings } = fakeConversation();
    const preferences = {
      get: () => Promise.reject(new Error("connection reset")),
      remember: () => Promise.reject(new Error("connection reset")),
    };
    expect(await readRemembered(conversation, { preferences }, 1, "image")).toBeUndefined();
    await rememberConfirmed(conversation, { preferences }, 1, {
      operation: "dub",
      source: { kind: "url", url: "https://example.com/a.mp3" },
      targetLanguage: "de",
    });
    expect(warnings).toEqual([
      "remembered options unreadable: defaults used",
      "confirmed options not remembered",
    ]);
  });

  test("what is stored is read as it is; nothing stored is nothing", async () => {
    const { conversation } = fakeConversation();
    const stored = { model: "nano-pro", imageSize: "1:1", numImages: 2 };
    const preferences = {
      get: (_: number, operation: string) => Promise.resolve(operation === "image" ? stored : undefined),
      remember: () => Promise.resolve(),
    };
    expect(await readRemembered(conversation, { preferences }, 1, "image")).toEqual(stored);
    expect(await readRemembered(conversation, { preferences }, 1, "video")).toBeUndefined();
  });
});
