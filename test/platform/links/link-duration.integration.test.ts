import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { downloadLink } from "../../../src/platform/links/link-download";
import { type LinkProbeOptions, probeLinkDuration } from "../../../src/platform/links/link-duration";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import { type HttpsFiles, serveBytes, silentWav, startHttpsFiles } from "../../support/https-files";
import { speechLike } from "../../support/media-files";

/**
 * The dubbing link probe against a real HTTPS server started here (a
 * certificate made at test time). 127.0.0.1 stands for "a public address"
 * through the injected policy; every other address keeps the real policy.
 */
describe("dubbing link duration", () => {
  let files: HttpsFiles;
  let local: LinkProbeOptions;
  const wav95 = silentWav(95);

  beforeAll(async () => {
    files = await startHttpsFiles();
    local = { ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) };
    files.route("/talk.wav", serveBytes(wav95));
    files.route("/garbage.bin", serveBytes(Buffer.from("this is not audio at all, only text ".repeat(200))));
    // a file whose length sits behind a chunk that never ends
    files.route("/endless.wav", (_req, res) => {
      res.writeHead(200, { "content-type": "audio/wav" });
      res.write(Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4, 0xff), Buffer.from("WAVEJUNK")]));
      const zeros = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(zeros)) {}
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    // sends the first bytes, then nothing more
    files.route("/stall.wav", (_req, res) => {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav95.length) });
      res.write(wav95.subarray(0, 12));
    });
    const redirect =
      (to: (port: number) => string) => (_req: unknown, res: import("node:http").ServerResponse) =>
        res.writeHead(302, { location: to(files.port) }).end();
    files.route(
      "/r1",
      redirect(() => "/r2"),
    );
    files.route(
      "/r2",
      redirect((port) => `https://127.0.0.1:${port}/r3`),
    );
    files.route(
      "/r3",
      redirect(() => "talk.wav"),
    );
    files.route(
      "/r0",
      redirect(() => "/r1"),
    );
    files.route(
      "/to-private",
      redirect((port) => `https://127.0.0.2:${port}/talk.wav`),
    );
    files.route(
      "/to-http",
      redirect((port) => `http://127.0.0.1:${port}/talk.wav`),
    );
  });
  afterAll(async () => {
    await files?.close();
  });

  test("a 95-second file is 95 seconds", async () => {
    expect(await probeLinkDuration(`${files.url}/talk.wav`, local)).toEqual({ seconds: 95 });
  });

  test("an MP3's length comes from its first frames; the rest is not fetched, and the torn connection raises nothing", async () => {
    // a 6-minute MP3 (1.4 MB): its length is known long before its end, and the download stops there
    const dir = await mkdtemp(join(tmpdir(), "msb-link-mp3-"));
    await speechLike(join(dir, "talk.mp3"), 360);
    const mp3 = await readFile(join(dir, "talk.mp3"));
    files.route("/talk.mp3", serveBytes(mp3, "audio/mpeg"));
    const measured = await probeLinkDuration(`${files.url}/talk.mp3`, local);
    expect("seconds" in measured && Math.abs(measured.seconds - 360) < 1).toBe(true);
    // an unhandled 'error' of the torn stream would fail this file (vitest reports it) and crash a bot
    await new Promise((resolve) => setTimeout(resolve, 300));
    await rm(dir, { recursive: true, force: true });
  });

  test("only https: http and other schemes are refused without a request", async () => {
    const before = files.hits.get("/talk.wav") ?? 0;
    expect(await probeLinkDuration(`http://127.0.0.1:${files.port}/talk.wav`, local)).toEqual({
      unknown: "not-https",
    });
    expect(await probeLinkDuration("ftp://example.com/a.wav", local)).toEqual({ unknown: "not-https" });
    expect(await probeLinkDuration("not a link", local)).toEqual({ unknown: "not-https" });
    expect(files.hits.get("/talk.wav") ?? 0).toBe(before);
  });

  test("a server streaming forever is cut at the size cap", async () => {
    expect(await probeLinkDuration(`${files.url}/endless.wav`, { ...local, maxBytes: 256 * 1024 })).toEqual({
      unknown: "size-cap",
    });
  });

  test("a server that stalls is cut at the time cap", async () => {
    expect(await probeLinkDuration(`${files.url}/stall.wav`, { ...local, timeoutMs: 500 })).toEqual({
      unknown: "time-cap",
    });
  });

  test("garbage is unreadable; a missing file is an HTTP status", async () => {
    expect(await probeLinkDuration(`${files.url}/garbage.bin`, local)).toEqual({ unknown: "unreadable" });
    expect(await probeLinkDuration(`${files.url}/missing.wav`, local)).toEqual({ unknown: "http-status" });
  });

  test("redirects are followed, relative or absolute, up to three; a fourth is refused", async () => {
    expect(await probeLinkDuration(`${files.url}/r1`, local)).toEqual({ seconds: 95 });
    expect(await probeLinkDuration(`${files.url}/r0`, local)).toEqual({ unknown: "too-many-redirects" });
    expect(await probeLinkDuration(`${files.url}/r0`, { ...local, maxRedirects: 4 })).toEqual({
      seconds: 95,
    });
  });

  test("a redirect to a private address or to http is refused", async () => {
    const before = files.hits.get("/talk.wav") ?? 0;
    expect(await probeLinkDuration(`${files.url}/to-private`, local)).toEqual({ unknown: "private-address" });
    expect(await probeLinkDuration(`${files.url}/to-http`, local)).toEqual({ unknown: "not-https" });
    expect(files.hits.get("/talk.wav") ?? 0).toBe(before);
    // the same redirect does reach the file when the policy allows that address
    const anywhere = { ca: files.ca, allowAddress: () => true };
    expect(await probeLinkDuration(`${files.url}/to-private`, anywhere)).toEqual({ seconds: 95 });
  });

  test("by default a link to this machine is refused, by address or by the name resolving to it", async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => void warnings.push(o) };
    expect(await probeLinkDuration(`${files.url}/talk.wav`, { ca: files.ca, logger })).toEqual({
      unknown: "private-address",
    });
    expect(await probeLinkDuration(`https://localhost:${files.port}/talk.wav`, { ca: files.ca })).toEqual({
      unknown: "private-address",
    });
    expect(warnings).toEqual([expect.objectContaining({ reason: "private-address" })]);
  });

  test("a certificate nobody vouches for is not trusted", async () => {
    const { ca: _ca, ...untrusted } = local;
    expect(await probeLinkDuration(`${files.url}/talk.wav`, untrusted)).toEqual({ unknown: "network" });
  });
});

/**
 * The worker's download of a dubbing source, before it is sent: the probe's
 * guards (one code for both), its own caps, the whole file written.
 */
describe("dubbing source download", () => {
  let files: HttpsFiles;
  let local: LinkProbeOptions;
  let dir: string;
  const wav95 = silentWav(95);
  let n = 0;
  const target = () => join(dir, `file-${n++}`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-link-download-"));
    files = await startHttpsFiles();
    local = { ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) };
    files.route("/talk.wav", serveBytes(wav95));
    files.route("/moved", (_req, res) => res.writeHead(302, { location: "/talk.wav" }).end());
    files.route("/to-private", (_req, res) =>
      res.writeHead(302, { location: `https://127.0.0.2:${files.port}/talk.wav` }).end(),
    );
    files.route("/to-http", (_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${files.port}/talk.wav` }).end(),
    );
    // no declared length: only counting the bytes finds it too large
    files.route("/unsized.wav", (_req, res) => {
      res.writeHead(200, { "content-type": "audio/wav" });
      res.end(wav95);
    });
    files.route("/stall.wav", (_req, res) => {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav95.length) });
      res.write(wav95.subarray(0, 1024));
    });
  });
  afterAll(async () => {
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("the whole file is written, through redirects, with its type", async () => {
    const to = target();
    expect(await downloadLink(`${files.url}/moved`, to, local)).toEqual({
      ok: true,
      value: { bytes: wav95.length, contentType: "audio/wav" },
    });
    expect((await readFile(to)).equals(wav95)).toBe(true);
  });

  test("the probe's guards: https only, each redirect too, never a private address (the default policy included)", async () => {
    expect(await downloadLink(`http://127.0.0.1:${files.port}/talk.wav`, target(), local)).toEqual({
      ok: false,
      reason: "not-https",
    });
    expect(await downloadLink(`${files.url}/to-http`, target(), local)).toEqual({
      ok: false,
      reason: "not-https",
    });
    expect(await downloadLink(`${files.url}/to-private`, target(), local)).toEqual({
      ok: false,
      reason: "private-address",
    });
    expect(await downloadLink(`${files.url}/talk.wav`, target(), { ca: files.ca })).toEqual({
      ok: false,
      reason: "private-address",
    });
    expect(await downloadLink(`${files.url}/missing.wav`, target(), local)).toEqual({
      ok: false,
      reason: "http-status",
    });
  });

  test("over the size cap: refused by its declared length, or cut while streaming", async () => {
    const capped = { ...local, maxBytes: wav95.length - 1 };
    expect(await downloadLink(`${files.url}/talk.wav`, target(), capped)).toEqual({
      ok: false,
      reason: "size-cap",
    });
    expect(await downloadLink(`${files.url}/unsized.wav`, target(), capped)).toEqual({
      ok: false,
      reason: "size-cap",
    });
    expect(
      await downloadLink(`${files.url}/unsized.wav`, target(), { ...local, maxBytes: wav95.length }),
    ).toMatchObject({
      ok: true,
    });
  });

  test("a server that stalls is cut at the time cap", async () => {
    expect(await downloadLink(`${files.url}/stall.wav`, target(), { ...local, timeoutMs: 300 })).toEqual({
      ok: false,
      reason: "time-cap",
    });
  });
});

describe("public addresses", () => {
  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81c::200e",
    "::ffff:8.8.8.8",
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test.each([
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.0.9",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "fe80::1",
    "fe80::1%eth0",
    "fd12:3456::1",
    "fc00::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:192.168.0.1",
    "64:ff9b::a00:1",
    "2002:7f00:1::1",
    "not an address",
    "",
  ])("%s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
