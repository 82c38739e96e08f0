import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allowedDurations,
  defaultImageModel,
  defaultVideoModel,
  dubbingBilledMinutes,
  dubbingLanguages,
  imageModelInfo,
  imageModels,
  limits,
  nearestImageSize,
  pollIntervalMs,
  videoModels,
} from "../../../src/platform/media-service/catalog";
import {
  dubbingRequest,
  imageGenerationRequest,
  resolveImageRequest,
  resolveVideoRequest,
  validateVideoRequest,
  videoGenerationRequest,
} from "../../../src/platform/media-service/schemas";

describe("catalog against the document", () => {
  it("image models, default first", () => {
    expect(imageModels).toEqual([
      "nano-core-2",
      "nano-core-2-1",
      "nano-lite",
      "nano-pro",
      "alpha-speed",
      "alpha-quality",
      "beta-image-2-5-flare",
      "beta-image-2-5-sunburst",
      "gamma-5-pro",
      "delta-3-image",
    ]);
    expect(defaultImageModel).toBe(imageModels[0]);
  });

  it("qualities only for the beta-image and gamma families", () => {
    const withQualities = imageModels.filter((m) => imageModelInfo[m].qualities.length > 0);
    expect(withQualities).toEqual(["beta-image-2-5-flare", "beta-image-2-5-sunburst", "gamma-5-pro"]);
  });

  it("the 30 dubbing languages", () => {
    expect(dubbingLanguages).toHaveLength(30);
    expect(new Set(dubbingLanguages).size).toBe(30);
    expect(dubbingLanguages.join(" ")).toBe(
      "fa en ar tr de fr es it pt ru ja ko zh hi nl pl sv id uk ro el cs da fi bg hr sk ms fil ta",
    );
  });

  it("video defaults: 5 s, 720p, 9:16; video-e-3.1's own 8 s and 16:9; every default allowed", () => {
    expect(defaultVideoModel).toBe("video-a-v3-turbo");
    expect(resolveVideoRequest({ prompt: "p" })).toMatchObject({
      duration: 5,
      resolution: "720p",
      aspectRatio: "9:16",
    });
    expect(resolveVideoRequest({ prompt: "p", model: "video-e-3.1" })).toMatchObject({
      duration: 8,
      aspectRatio: "16:9",
    });
    for (const [model, info] of Object.entries(videoModels)) {
      expect(
        validateVideoRequest({
          model,
          duration: info.defaultDuration,
          resolution: info.defaultResolution,
          aspect_ratio: info.defaultAspectRatio,
        }),
        model,
      ).toEqual([]);
    }
    expect(allowedDurations("video-e-3.1")).toEqual([4, 6, 8]);
  });

  it("audio and web search only for the video-b family", () => {
    const b = Object.entries(videoModels)
      .filter(([, i]) => i.audio && i.webSearch)
      .map(([m]) => m);
    expect(b.sort()).toEqual(["video-b-2", "video-b-2-5", "video-b-2-mini"]);
  });

  it("limits and poll intervals of section 8", () => {
    expect(limits).toMatchObject({ metadataMaxKeys: 16, metadataMaxValueLength: 500, editMaxImageUrls: 3 });
    expect(limits.numImages).toEqual({ min: 1, max: 4 });
    expect(limits.dubbingMaxSeconds).toBe(300);
    expect(limits.videoProcessingLimitMs).toBe(900_000);
    expect([
      pollIntervalMs("image"),
      pollIntervalMs("edit"),
      pollIntervalMs("video"),
      pollIntervalMs("dub"),
    ]).toEqual([3000, 3000, 3000, 5000]);
  });

  it("dubbing is billed per started minute, at least one", () => {
    expect([0, 1, 60, 60.2, 61, 299, 300].map(dubbingBilledMinutes)).toEqual([1, 1, 1, 2, 2, 5, 5]);
  });

  it("nearestImageSize picks the listed ratio closest to a picture's", () => {
    expect(nearestImageSize(1920, 1080)).toBe("16:9");
    expect(nearestImageSize(1080, 1920)).toBe("9:16");
    expect(nearestImageSize(1000, 900)).toBe("1:1");
    expect(nearestImageSize(3000, 2000)).toBe("16:9");
  });
});

describe("request schemas", () => {
  it("a video request is valid exactly when each value is in the model's lists", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(videoModels)),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom("480p", "720p", "1080p", "4k"),
        fc.constantFrom("16:9", "9:16", "1:1", "auto"),
        (model, duration, resolution, aspect_ratio) => {
          const info = videoModels[model as keyof typeof videoModels];
          const expected =
            allowedDurations(model as keyof typeof videoModels).includes(duration) &&
            (info.resolutions as readonly string[]).includes(resolution) &&
            (info.aspectRatios as readonly string[]).includes(aspect_ratio);
          const parsed = videoGenerationRequest.safeParse({
            prompt: "p",
            model,
            duration,
            resolution,
            aspect_ratio,
          });
          expect(parsed.success).toBe(expected);
        },
      ),
    );
  });

  it("metadata counts characters, not UTF-16 units", () => {
    expect(imageGenerationRequest.safeParse({ prompt: "p", metadata: { a: "😀".repeat(500) } }).success).toBe(
      true,
    );
    expect(imageGenerationRequest.safeParse({ prompt: "p", metadata: { a: "😀".repeat(501) } }).success).toBe(
      false,
    );
  });

  it("source_language auto is allowed with any target; equal languages are not", () => {
    expect(
      dubbingRequest.safeParse({
        source_url: "https://a/b.mp3",
        target_language: "fa",
        source_language: "auto",
      }).success,
    ).toBe(true);
    expect(
      dubbingRequest.safeParse({
        source_url: "https://a/b.mp3",
        target_language: "fa",
        source_language: "fa",
      }).success,
    ).toBe(false);
    expect(dubbingRequest.safeParse({ source_url: "ftp://a/b.mp3", target_language: "fa" }).success).toBe(
      false,
    );
  });

  it("resolveImageRequest applies defaults and ignores resolution where there are no qualities", () => {
    expect(resolveImageRequest({ prompt: "p", resolution: "4K" })).toEqual({
      model: "nano-core-2",
      imageSize: "9:16",
      resolution: "1K",
      numImages: 1,
    });
    expect(resolveImageRequest({ prompt: "p", model: "gamma-5-pro", resolution: "4K" }).resolution).toBe(
      "4K",
    );
  });
});
