import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LinkKindProbe, linkKindProbe } from "../../../src/platform/links/link-kind";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import { type HttpsFiles, serveBytes, silentWav, startHttpsFiles } from "../../support/https-files";

/**
 * What a link pasted into the chat points at, read from a real HTTPS server
 * started here: its content type, or for a type that names nothing its
 * extension; audio and video with their length from the same request.
 */
describe("what a pasted link points at", () => {
  let files: HttpsFiles;
  let probe: LinkKindProbe;

  beforeAll(async () => {
    files = await startHttpsFiles();
    probe = linkKindProbe({ ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) });
    files.route("/talk.wav", serveBytes(silentWav(42)));
    files.route("/clip.mp4", serveBytes(Buffer.from("not a real video"), "video/mp4"));
    files.route("/untyped.wav", serveBytes(silentWav(7), "application/octet-stream"));
    files.route("/photo.jpg", serveBytes(Buffer.from("jpeg-ish"), "application/octet-stream"));
    files.route("/photo", serveBytes(Buffer.from("png-ish"), "image/png"));
    files.route("/page.mp3", serveBytes(Buffer.from("<html></html>"), "text/html; charset=utf-8"));
  });
  afterAll(async () => files?.close());

  test("audio by its type, with its length; video whose length cannot be read is still video", async () => {
    expect(await probe(`${files.url}/talk.wav`)).toEqual({
      kind: "media",
      media: "audio",
      duration: { seconds: 42 },
    });
    expect(await probe(`${files.url}/clip.mp4`)).toMatchObject({
      kind: "media",
      media: "video",
      duration: { unknown: expect.any(String) },
    });
  });

  test("a type that names nothing: the extension decides", async () => {
    expect(await probe(`${files.url}/untyped.wav`)).toEqual({
      kind: "media",
      media: "audio",
      duration: { seconds: 7 },
    });
    expect(await probe(`${files.url}/photo.jpg`)).toEqual({ kind: "image" });
  });

  test("an image by its type; a page is a page whatever its name says", async () => {
    expect(await probe(`${files.url}/photo`)).toEqual({ kind: "image" });
    expect(await probe(`${files.url}/page.mp3`)).toEqual({ kind: "page" });
  });

  test("a missing file and a private address are not reachable", async () => {
    expect(await probe(`${files.url}/gone`)).toEqual({ kind: "unreachable", reason: "http-status" });
    expect(await probe(`https://127.0.0.2:${files.port}/talk.wav`)).toEqual({
      kind: "unreachable",
      reason: "private-address",
    });
  });
});
