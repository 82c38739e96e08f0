import { describe, expect, test } from "vitest";
import type { AppInput, StartOptions } from "../../../src/features/miniapp/contract";
import {
  type Attached,
  type Draft,
  fitted,
  initialDraft,
  missing,
  pricedOf,
  requestOf,
  withOperation,
  withPreset,
} from "../../../src/features/miniapp/web/draft";
import {
  defaultImageModel,
  defaultVideoModel,
  videoModels,
} from "../../../src/platform/media-service/catalog";

const upload = (id: string): AppInput => ({ kind: "upload", id });
const attached = (id: string, kind: Attached["kind"]): Attached => ({ input: upload(id), kind, name: "" });

/** The Mini App composer's draft without a page: defaults, fitting to a model, presets and what is sent. */
describe("the composer's draft", () => {
  test("starts as a picture with the catalog's defaults, dubbing into the reader's language when it can", () => {
    const d = initialDraft("fa");
    expect(d).toMatchObject({
      operation: "image",
      prompt: "",
      upscale: false,
      imageModel: defaultImageModel,
    });
    expect(d.videoModel).toBe(defaultVideoModel);
    expect(d.duration).toBe(videoModels[defaultVideoModel].defaultDuration);
    expect(d.targetLanguage).toBe("fa");
    expect(initialDraft("xx").targetLanguage).toBe("en");
  });

  test("fitting to a model keeps what it accepts and resets the rest to its defaults", () => {
    const d = initialDraft("en");
    expect(fitted({ ...d, imageModel: "gamma-5-pro", imageResolution: "4K" }).imageResolution).toBe("4K");
    expect(fitted({ ...d, imageModel: "gamma-5-pro", imageResolution: undefined }).imageResolution).toBe(
      "1K",
    );
    expect(
      fitted({ ...d, imageModel: "nano-core-2", imageResolution: "4K" }).imageResolution,
    ).toBeUndefined();
    const e31 = fitted({
      ...d,
      videoModel: "video-e-3.1",
      duration: 5,
      aspectRatio: "1:1",
      generateAudio: true,
    });
    expect(e31).toMatchObject({ duration: 8, aspectRatio: "16:9", generateAudio: false });
    expect(fitted({ ...d, videoModel: "video-b-2", generateAudio: true }).generateAudio).toBe(true);
  });

  test("a preset sets its fields over the draft and is fitted like any change", () => {
    const d = withPreset(initialDraft("en"), {
      operation: "edit",
      upscale: false,
      request: { prompt: "a fox", model: "gamma-5-pro", images: [upload("a")], resolution: "2K" },
    });
    expect(d).toMatchObject({ operation: "edit", prompt: "a fox", imageModel: "gamma-5-pro" });
    expect(d.imageResolution).toBe("2K");
    expect(d.images.map((a) => a.input.id)).toEqual(["a"]);
    // a video's resolution is set too, then fitted back to one the video model has
    expect(d.videoResolution).toBe(videoModels[defaultVideoModel].defaultResolution);
  });

  test("what is missing before Confirm: a prompt (not for a 4K version), pictures to edit, a file to dub", () => {
    const d = initialDraft("en");
    const need = (draft: Draft) => missing(draft, 2000);
    expect(need(d)).toBe("need-prompt");
    expect(need({ ...d, prompt: "  " })).toBe("need-prompt");
    expect(need({ ...d, upscale: true })).toBeUndefined();
    expect(need({ ...d, operation: "edit", prompt: "x" })).toBe("need-pictures");
    expect(need({ ...d, operation: "dub" })).toBe("need-source");
    expect(need({ ...d, prompt: "x" })).toBeUndefined();
  });

  test("a prompt over the limit is kept whole and named, counted as the chat counts it (trimmed)", () => {
    const d = { ...initialDraft("en"), prompt: `  ${"x".repeat(2001)}  ` };
    expect(missing(d, 2000)).toBe("need-shorter");
    expect(missing({ ...d, prompt: ` ${"x".repeat(2000)} ` }, 2000)).toBeUndefined();
    expect(requestOf(d)).toMatchObject({ prompt: d.prompt });
  });

  const start: StartOptions = {
    image: { model: "alpha-speed", imageSize: "1:1", numImages: 1 },
    edit: { model: "gamma-5-pro", imageSize: "16:9", resolution: "2K", numImages: 2 },
    video: {
      model: "video-b-2",
      duration: 10,
      resolution: "1080p",
      aspectRatio: "16:9",
      generateAudio: true,
      webSearch: false,
    },
    dub: { targetLanguage: "de", sourceLanguage: "en" },
  };

  test("Create starts where the chat's panels start: each operation's remembered options", () => {
    const d = initialDraft("fa", start);
    expect(d).toMatchObject({
      operation: "image",
      imageModel: "alpha-speed",
      imageSize: "1:1",
      videoModel: "video-b-2",
      duration: 10,
      videoResolution: "1080p",
      generateAudio: true,
      targetLanguage: "de",
      sourceLanguage: "en",
    });
    // image and edit are remembered apart: moving to edit takes edit's, unless changed here
    expect(withOperation(d, "edit", start)).toMatchObject({
      operation: "edit",
      imageModel: "gamma-5-pro",
      imageSize: "16:9",
      imageResolution: "2K",
      numImages: 2,
    });
    const changed = { ...d, imageModel: "nano-pro" as const };
    expect(withOperation(changed, "edit", start)).toMatchObject({
      operation: "edit",
      imageModel: "nano-pro",
    });
    expect(withOperation(d, "video", start)).toMatchObject({ operation: "video", imageModel: "alpha-speed" });
  });

  test("the request sent and the fields priced are the chosen operation's only", () => {
    const draft: Draft = { ...initialDraft("en"), prompt: "rain", images: [attached("p", "photo")] };
    expect(requestOf(draft)).toEqual({
      operation: "image",
      prompt: "rain",
      model: defaultImageModel,
      imageSize: draft.imageSize,
      numImages: 1,
    });
    expect(requestOf({ ...draft, operation: "edit" })).toMatchObject({ images: [upload("p")] });
    expect(requestOf({ ...draft, operation: "video" })).not.toHaveProperty("generateAudio");
    expect(pricedOf({ ...draft, operation: "video" })).toEqual({
      operation: "video",
      model: defaultVideoModel,
      resolution: draft.videoResolution,
      duration: draft.duration,
    });
    // a dub is priced by its file's length: before the file there is nothing to price
    expect(pricedOf({ ...draft, operation: "dub" })).toBeUndefined();
    expect(pricedOf({ ...draft, operation: "dub", source: attached("s", "audio") })).toEqual({
      operation: "dub",
      source: upload("s"),
    });
  });
});
