import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { finished } from "node:stream/promises";
import { Api, GrammyError, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { parseMultipart, spoolMultipart } from "../../../sandbox/playground/telegram/multipart";

const MB = 1024 * 1024;
const bigSize = 60 * MB;

let dir: string;
/** 60 MB of random bytes, written a megabyte at a time */
let bigPath: string;
let bigHash: string;

async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function rejection(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tg-local-server-"));
  bigPath = join(dir, "big.mp3");
  const out = createWriteStream(bigPath);
  const hash = createHash("sha256");
  for (let written = 0; written < bigSize; written += MB) {
    const chunk = randomBytes(MB);
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await finished(out);
  bigHash = hash.digest("hex");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("as a local Bot API server (telegram-bot-api --local)", () => {
  let tg: TelegramStandIn;
  let filesDir: string;
  let api: Api;

  beforeAll(async () => {
    filesDir = join(dir, "bot-api");
    tg = await startTelegramStandIn({ rules: { flood: false }, localServer: { filesDir } });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
  });

  afterAll(async () => {
    await tg.close();
  });

  test("a user's 60 MB file: getFile answers the absolute path of a copy with the same bytes", async () => {
    const user = tg.user();
    const sent = await user.sendAudio({ path: bigPath, duration: 200 });
    expect(sent.audio).toMatchObject({ file_size: bigSize, file_name: "big.mp3", mime_type: "audio/mpeg" });

    const file = await api.getFile(sent.audio!.file_id);
    expect(file.file_size).toBe(bigSize);
    const path = file.file_path!;
    expect(isAbsolute(path)).toBe(true);
    expect(path.startsWith(`${join(filesDir, tg.token, "music")}/`)).toBe(true);
    expect(path).not.toBe(bigPath);
    expect((await stat(path)).size).toBe(bigSize);
    expect(await sha256(path)).toBe(bigHash);

    // as telegram-bot-api --local, no file is served over HTTP: the bot reads the path
    const download = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${path}`);
    expect(download.status).toBe(404);
    await download.body?.cancel();
  });

  test("a declared size is a file of that size on disk (zeros past the bytes given)", async () => {
    const user = tg.user();
    const sent = await user.sendDocument({ fileName: "big.mp4", declaredSize: 30 * MB });
    const file = await api.getFile(sent.document!.file_id);
    expect((await stat(file.file_path!)).size).toBe(30 * MB);
    const head = (await readFile(file.file_path!)).subarray(0, 2048);
    expect(head.subarray(0, 1024).every((b) => b === 7)).toBe(true);
    expect(head.subarray(1024).every((b) => b === 0)).toBe(true);
  });

  test("the bot uploads 60 MB: accepted, streamed to disk, and no spooled part is left", async () => {
    const user = tg.user({ started: true });
    const sent = await api.sendDocument(user.chatId, new InputFile(bigPath, "render.mp3"));
    expect(sent.document).toMatchObject({ file_size: bigSize, file_name: "render.mp3" });
    const call = tg.callsOf("sendDocument").at(-1)!;
    expect(call.params.document).toMatchObject({ name: "render.mp3", size: bigSize });

    const path = (await api.getFile(sent.document.file_id)).file_path!;
    expect(path.startsWith(`${join(filesDir, tg.token, "documents")}/`)).toBe(true);
    expect(await sha256(path)).toBe(bigHash);
    expect(await readdir(join(filesDir, tg.token, "uploads"))).toEqual([]);
  });

  test("photos stay at 10 MB; a photo's getFile is a path on disk too", async () => {
    const user = tg.user({ started: true });
    const tooBig = await rejection(api.sendPhoto(user.chatId, new InputFile(bigPath, "big.png")));
    expect(tooBig.description).toBe("Bad Request: PHOTO_SAVE_FILE_INVALID");

    const photo = await user.sendPhoto({ width: 320, height: 200 });
    const largest = photo.photo!.at(-1)!;
    const path = (await api.getFile(largest.file_id)).file_path!;
    expect(isAbsolute(path)).toBe(true);
    expect((await readFile(path)).equals(tg.fileBytes(largest.file_id))).toBe(true);
  });
});

describe("as the cloud Bot API (the default)", () => {
  let tg: TelegramStandIn;
  let api: Api;

  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
  });

  afterAll(async () => {
    await tg.close();
  });

  test("a user's 60 MB file reaches the bot, but getFile refuses it", async () => {
    const user = tg.user();
    const sent = await user.sendAudio({ path: bigPath });
    expect(sent.audio?.file_size).toBe(bigSize);
    expect((await rejection(api.getFile(sent.audio!.file_id))).description).toBe(
      "Bad Request: file is too big",
    );
  });

  test("a small file sent from a path downloads from <apiRoot>/file/bot<token>/<relative path>", async () => {
    const small = join(dir, "notes.txt");
    await writeFile(small, "hello from disk");
    const user = tg.user();
    const sent = await user.sendDocument({ path: small });
    expect(sent.document).toMatchObject({ file_name: "notes.txt", mime_type: "text/plain", file_size: 15 });
    const file = await api.getFile(sent.document!.file_id);
    expect(file.file_path).toMatch(/^documents\/file_\d+\.txt$/);
    const download = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`);
    expect(await download.text()).toBe("hello from disk");
    await expect(user.sendDocument({ path: small, declaredSize: 1 })).rejects.toThrow(/declaredSize/);
  });

  test("the bot's 60 MB upload is refused with 413", async () => {
    const user = tg.user({ started: true });
    const refused = await rejection(api.sendDocument(user.chatId, new InputFile(bigPath, "render.mp3")));
    expect(refused.error_code).toBe(413);
    expect(user.messages()).toEqual([]);
  });
});

describe("the streaming multipart reader", () => {
  const boundary = "----stand-in-boundary";
  // file bytes that look like the start of a delimiter, and CRLFs, to catch a split in the wrong place
  const payload = Buffer.concat([
    Buffer.from(`\r\n--${boundary.slice(0, 10)}\r\n--`),
    randomBytes(5000),
    Buffer.from("\r\n"),
  ]);
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition:form-data; name="chat_id"\r\n\r\n42\r\n` +
        `--${boundary}\r\ncontent-disposition:form-data; name="document"; filename=a.bin\r\n` +
        "content-type: application/octet-stream\r\n\r\n",
    ),
    payload,
    Buffer.from(
      `\r\n--${boundary}\r\ncontent-disposition: form-data; name="caption"\r\n\r\nhé\r\n--${boundary}--\r\n`,
    ),
  ]);

  function streamOf(bytes: Buffer, chunkSize: number): ReadableStream<Uint8Array> {
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, at + chunkSize));
        at += chunkSize;
      },
    });
  }

  test.each([1, 2, 3, 7, 40, 1000, 65_536])(
    "reads what the in-memory parser reads, in chunks of %i",
    async (size) => {
      const spoolDir = join(dir, `spool-${size}`);
      const expected = parseMultipart(body, boundary);
      const spooled = await spoolMultipart(streamOf(body, size), boundary, spoolDir, 1_000_000);
      expect(spooled.fields).toEqual(expected.fields);
      const file = spooled.files.get("document")!;
      expect(file).toMatchObject({ name: "a.bin", mime: "application/octet-stream", size: payload.length });
      expect((await readFile(file.diskPath!)).equals(expected.files.get("document")!.bytes!)).toBe(true);
    },
  );

  test("a body that breaks off leaves no spooled file", async () => {
    const spoolDir = join(dir, "spool-broken");
    await expect(
      spoolMultipart(streamOf(body.subarray(0, 400), 64), boundary, spoolDir, 1_000_000),
    ).rejects.toThrow(/unterminated/);
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
