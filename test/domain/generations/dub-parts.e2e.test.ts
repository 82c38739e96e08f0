import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import { type HttpsFiles, serveBytes, startHttpsFiles } from "../../support/https-files";
import { probe, speechLike, videoWithSpeech } from "../../support/media-files";
import { byData, plain, says } from "../../support/messages";

/**
 * Dubbing longer than the service's 5 minutes, end to end with real ffmpeg:
 * an upload through the Telegram stand-in, the worker keeping and measuring
 * it, cutting it at pauses into parts of at most 5 minutes, the simulator
 * dubbing each part (for its real length), the worker joining the dubbed
 * parts into one file, and the one charge.
 */
const prices = createPrices(loadPriceTable());
const priceOf = (seconds: number) => {
  const q = quote(prices, { operation: "dub", durationSeconds: seconds });
  if (!q.ok) throw new Error("no dubbing price");
  return q.credits;
};
/** What the service billed for the parts ≤ what the user was charged ≤ what was held. */
function billedWithin(g: { serviceCredits: number | null; charged: number | null; price: number }) {
  expect(g.serviceCredits ?? Number.NaN).toBeLessThanOrEqual(g.charged ?? Number.NaN);
  expect(g.charged).toBeLessThanOrEqual(g.price);
}
const isPanel = (m: BotMessage) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(byData("cv:ok"));

describe("dubbing in parts", () => {
  let h: Harness;
  let dir: string;
  let files: HttpsFiles;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-parts-"));
    await speechLike(join(dir, "lecture.mp3"), 720);
    await videoWithSpeech(join(dir, "film.mp4"), 420);
    await speechLike(join(dir, "podcast.mp3"), 360);
    files = await startHttpsFiles();
    files.route("/podcast.mp3", serveBytes(await readFile(join(dir, "podcast.mp3")), "audio/mpeg"));
    h = await startHarness({
      env: { WELCOME_CREDITS: "0" },
      // the test's HTTPS server: its certificate trusted, 127.0.0.1 taken for a public address
      linkProbe: { ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.stop();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function dub(user: TestUser, send: () => Promise<unknown>, length: string) {
    await h.runtime.ledger.grant({ userId: user.id, amount: 500, key: `dub-parts-${user.id}` });
    await user.send("/dub");
    await user.waitFor(says("Send the audio or video to dub"));
    await send();
    const panel = await user.waitFor((m) => isPanel(m) && says(length)(m));
    await user.press(byData("cv:ok"), { message: panel });
    return { panel, g: await eventually(async () => (await h.runtime.generations.recent(user.id, 1))[0]) };
  }

  /** the file Telegram got from the bot, written out to be measured */
  async function received(fileId: string, name: string) {
    const path = join(dir, name);
    await writeFile(path, h.tg.fileBytes(fileId));
    return probe(path);
  }

  const tasksOf = (gid: string) => h.sim.tasks().filter((t) => t.metadata?.gid === gid);

  test("a 12-minute audio is dubbed in 3 parts and arrives as one file of its length, charged the price quoted", async () => {
    const user = h.tg.user({ language: "en", started: true });
    const source = await probe(join(dir, "lecture.mp3"));
    const { panel, g } = await dub(
      user,
      () => user.sendAudio({ path: join(dir, "lecture.mp3"), duration: 720 }),
      "Length: 12 min 0 s, dubbed in 3 parts",
    );
    const quoted = priceOf(720);
    // Telegram's 720 s may be 720.9: held for 13 started minutes, "up to" since 12 may do
    expect(plain(panel.text)).toContain(`Price: up to ${quoted} credits`);
    expect(g.price).toBe(quoted);
    await user.waitFor(says("Dubbing part 1 of 3"), { timeoutMs: 60_000 });
    const result = await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 120_000 });
    const joined = await received(result.audio!.file_id, "lecture-dubbed.mp3");
    expect(Math.abs(joined.seconds - source.seconds)).toBeLessThan(1);

    const done = await generationIn(h, user.id, "delivered");
    expect(tasksOf(g.id)).toHaveLength(3);
    expect(tasksOf(g.id).map((t) => t.metadata?.part)).toEqual(expect.arrayContaining(["1/3", "2/3", "3/3"]));
    expect(done.charged).toBe(quoted);
    billedWithin(done);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 500 - quoted, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  }, 180_000);

  test("a 6-minute https link is read for its length, priced in 2 parts, downloaded once and dubbed into one file", async () => {
    const user = h.tg.user({ language: "en", started: true });
    const { g } = await dub(
      user,
      () => user.send(`${files.url}/podcast.mp3`),
      "Length: 6 min 0 s, dubbed in 2 parts",
    );
    // a link's length is read to the fraction (an MP3's frames make it 360.07 s: 5 + 2 minutes)
    const source = await probe(join(dir, "podcast.mp3"));
    expect(g.price).toBe(priceOf(source.seconds));
    const result = await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 120_000 });
    const joined = await received(result.audio!.file_id, "podcast-dubbed.mp3");
    expect(Math.abs(joined.seconds - source.seconds)).toBeLessThan(1);
    const done = await generationIn(h, user.id, "delivered");
    expect(tasksOf(g.id)).toHaveLength(2);
    // the service got our parts, never the user's link
    expect(tasksOf(g.id).every((t) => !JSON.stringify(t).includes("podcast.mp3"))).toBe(true);
    expect(done.charged).toBe(priceOf(source.seconds));
    billedWithin(done);
  }, 180_000);

  test("a 7-minute video is dubbed in 2 parts and arrives as one video with its picture, of its length", async () => {
    const user = h.tg.user({ language: "en", started: true });
    const source = await probe(join(dir, "film.mp4"));
    const { g } = await dub(
      user,
      () => user.sendVideo({ path: join(dir, "film.mp4"), duration: 420, width: 160, height: 120 }),
      "Length: 7 min 0 s, dubbed in 2 parts",
    );
    const quoted = priceOf(420);
    const result = await user.waitFor((m) => m.video !== undefined, { timeoutMs: 120_000 });
    const joined = await received(result.video!.file_id, "film-dubbed.mp4");
    expect(joined.video).toBe(true);
    expect(joined.audio).toBe(true);
    expect(Math.abs(joined.seconds - source.seconds)).toBeLessThan(1);

    const done = await generationIn(h, user.id, "delivered");
    expect(tasksOf(g.id)).toHaveLength(2);
    expect(done.charged).toBe(quoted);
    billedWithin(done);
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  }, 180_000);
});

describe("dubbing a large upload through a local Bot API server", () => {
  let h: Harness;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-local-"));
    // 5 min 45 s of CD-quality WAV: 61 MB, three times what the cloud Bot API hands a bot
    await speechLike(join(dir, "interview.wav"), 345, { burst: 7, gap: 1.5 }, "wav");
    h = await startHarness({ localBotApi: true, env: { WELCOME_CREDITS: "0" } });
  }, 120_000);

  afterAll(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("a 60 MB upload is accepted, read from the server's disk and dubbed (in 2 parts)", async () => {
    const user = h.tg.user({ language: "en", started: true });
    await h.runtime.ledger.grant({ userId: user.id, amount: 500, key: `dub-local-${user.id}` });
    await user.send("/dub");
    await user.waitFor(says("Files over 2,000 MB: send a link"));
    const sent = await user.sendAudio({ path: join(dir, "interview.wav"), duration: 345 });
    expect(sent.audio?.file_size).toBeGreaterThan(60 * 1000 * 1000);
    const panel = await user.waitFor((m) => isPanel(m) && says("Length: 5 min 45 s, dubbed in 2 parts")(m));
    await user.press(byData("cv:ok"), { message: panel });
    const result = await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 120_000 });
    const path = join(dir, "interview-dubbed.mp3");
    await writeFile(path, h.tg.fileBytes(result.audio!.file_id));
    expect(Math.abs((await probe(path)).seconds - 345)).toBeLessThan(1);
    const done = await generationIn(h, user.id, "delivered");
    expect(h.sim.tasks().filter((t) => t.metadata?.gid === done.id)).toHaveLength(2);
    expect(done.charged).toBe(priceOf(345));
    billedWithin(done);
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  }, 180_000);
});
