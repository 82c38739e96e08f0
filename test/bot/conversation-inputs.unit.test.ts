import type { Message } from "grammy/types";
import { describe, expect, test } from "vitest";
import { fitImageOptions } from "../../src/domain/generations/image-options";
import { linkIn, mediaIn, photoIn } from "../../src/domain/generations/inputs";
import { captionCommand } from "../../src/features/requests/feature";
import { fitVideoOptions } from "../../src/features/requests/video";

const MB = 1024 * 1024;
const message = (content: Record<string, unknown>) =>
  ({ message_id: 1, date: 0, chat: { id: 1, type: "private", first_name: "A" }, ...content }) as Message;
const file = (extra: Record<string, unknown> = {}) => ({ file_id: "f", file_unique_id: "u", ...extra });

describe("conversation inputs", () => {
  test("links: https accepted, http refused, other text is not a link", () => {
    expect(linkIn(" https://example.com/a.png ")).toEqual({ ok: true, url: "https://example.com/a.png" });
    expect(linkIn("http://example.com/a.png")).toEqual({ ok: false });
    expect(linkIn("make the sky purple")).toBeUndefined();
  });

  test("photos: the largest size; image files; stickers and 20 MB+ files explained", () => {
    const photo = photoIn(
      message({
        photo: [
          file({ width: 90, height: 60, file_id: "small" }),
          file({ width: 900, height: 600, file_id: "big" }),
        ],
      }),
    );
    expect(photo).toMatchObject({ ok: true, value: { ref: { fileId: "big" }, width: 900, height: 600 } });
    expect(photoIn(message({ document: file({ mime_type: "image/png", file_size: 5 * MB }) }))?.ok).toBe(
      true,
    );
    expect(photoIn(message({ sticker: file({ type: "regular" }) }))).toEqual({
      ok: false,
      problem: { key: "cv-photo-sticker" },
    });
    expect(
      photoIn(message({ document: file({ mime_type: "image/png", file_size: 21 * MB }) })),
    ).toMatchObject({
      ok: false,
      problem: { key: "cv-file-too-big-telegram", size: 21 },
    });
    expect(photoIn(message({ text: "hi" }))).toBeUndefined();
  });

  test("media: audio, voice, video and files by type or extension; limits of Telegram and the service", () => {
    expect(mediaIn(message({ voice: file({ duration: 12 }) }))).toMatchObject({
      ok: true,
      value: { kind: "audio", durationSeconds: 12 },
    });
    expect(mediaIn(message({ video: file({ duration: 30, file_name: "a.mp4" }) }))).toMatchObject({
      ok: true,
      value: { kind: "video", label: "a.mp4" },
    });
    expect(mediaIn(message({ document: file({ file_name: "talk.m4a" }) }))?.ok).toBe(true);
    expect(
      mediaIn(message({ document: file({ file_name: "notes.pdf", mime_type: "application/pdf" }) })),
    ).toEqual({
      ok: false,
      problem: { key: "cv-media-not-media" },
    });
    expect(mediaIn(message({ audio: file({ duration: 60, file_size: 30 * MB }) }))).toMatchObject({
      ok: false,
      problem: { key: "cv-dub-upload-too-big", size: 30 },
    });
    // over the cloud Bot API's 20 MB: a link is the way (up to the source limit)
    expect(mediaIn(message({ video: file({ duration: 60, file_size: 200 * MB }) }))).toMatchObject({
      ok: false,
      problem: { key: "cv-dub-upload-too-big", limit: 2000 },
    });
    expect(mediaIn(message({ video: file({ duration: 60, file_size: 2100 * MB }) }))).toMatchObject({
      ok: false,
      problem: { key: "cv-file-too-big-service", limit: 2000 },
    });
    // longer than the studio's 5 minutes is dubbed in parts, up to DUB_MAX_MINUTES (an hour by default)
    expect(mediaIn(message({ audio: file({ duration: 301 }) }))?.ok).toBe(true);
    expect(mediaIn(message({ audio: file({ duration: 3601 }) }))).toEqual({
      ok: false,
      problem: { key: "cv-media-too-long", minutes: 60, seconds: 1, limit: 60 },
    });
    // through a local Bot API server, uploads up to the source limit
    const local = { maxSeconds: 600, uploadMaxBytes: 2000 * 1000 * 1000, sourceMaxBytes: 2000 * 1000 * 1000 };
    expect(mediaIn(message({ video: file({ duration: 420, file_size: 60 * MB }) }), local)?.ok).toBe(true);
    expect(mediaIn(message({ video: file({ duration: 660, file_size: 60 * MB }) }), local)).toMatchObject({
      ok: false,
      problem: { key: "cv-media-too-long", limit: 10 },
    });
  });

  test("captions: /edit and /dub for this bot or for none", () => {
    expect(captionCommand("/edit make it snow", "studio_bot")).toEqual({
      name: "edit",
      text: "make it snow",
    });
    expect(captionCommand("/dub@studio_bot fa", "studio_bot")).toEqual({ name: "dub", text: "fa" });
    expect(captionCommand("/edit", "studio_bot")).toEqual({ name: "edit", text: undefined });
    expect(captionCommand("/edit@other_bot x", "studio_bot")).toBeUndefined();
    expect(captionCommand("a holiday /edit", "studio_bot")).toBeUndefined();
  });
});

describe("options always valid for the model", () => {
  test("video: a changed model keeps what it accepts and takes its defaults for the rest", () => {
    const b2 = fitVideoOptions(
      { duration: 15, resolution: "4k", generateAudio: true, webSearch: true },
      "video-b-2",
    );
    expect(b2).toMatchObject({ duration: 15, resolution: "4k", generateAudio: true, webSearch: true });
    const e = fitVideoOptions(b2, "video-e-3.1");
    expect(e).toMatchObject({ duration: 8, resolution: "4k", generateAudio: false, webSearch: false });
    const d = fitVideoOptions({ ...e, aspectRatio: "1:1" }, "video-d-imagine");
    expect(d).toMatchObject({ duration: 8, resolution: "720p", aspectRatio: "1:1" });
    expect(fitVideoOptions({ aspectRatio: "1:1" }, "video-e-3.1").aspectRatio).toBe("16:9");
  });

  test("image: resolution only for models with several qualities", () => {
    const gamma = fitImageOptions(
      { model: "nano-core-2", imageSize: "1:1", resolution: undefined, numImages: 3 },
      "gamma-5-pro",
    );
    expect(gamma).toMatchObject({ resolution: "1K", numImages: 3 });
    expect(fitImageOptions({ ...gamma, resolution: "4K" }, "nano-pro").resolution).toBeUndefined();
  });
});
