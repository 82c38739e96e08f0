import { eq } from "drizzle-orm";
import type { InlineKeyboardButton } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { holds } from "../../../src/platform/db/schema";
import { linkProbeMaxBytes } from "../../../src/platform/links/link-duration";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import {
  fetchTrusting,
  type HttpsFiles,
  serveBytes,
  silentWav,
  startHttpsFiles,
} from "../../support/https-files";

/**
 * Dubbing links priced by their real length, end to end: the Telegram
 * stand-in, the bot reading the link from an HTTPS server of this test (its
 * certificate trusted, 127.0.0.1 taken for a public address), the worker
 * downloading the file once into our storage and measuring it before it is
 * sent, and the media simulator downloading that copy from our file proxy
 * (never the user's link) and settling on the length it measures.
 * The default price table, and welcome credits that pay for two minutes; the worker's
 * download is capped at 3 MB here (100 MB in production).
 */
const downloadCap = 3_000_000;
const prices = createPrices(loadPriceTable());
const credits = (seconds: number) => {
  const q = prices.dub(seconds);
  if (!q.ok) throw new Error("no dubbing price");
  return q.credits;
};

const plain = (text: string | undefined) => (text ?? "").replace(/[\u2068\u2069]/g, "");
const says = (part: string) => (m: BotMessage) => plain(m.text).includes(part);
const byData = (data: string) => (b: InlineKeyboardButton) =>
  "callback_data" in b && b.callback_data === data;
const isPanel = (m: BotMessage) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(byData("cv:ok"));

describe("dubbing links priced by their real length", () => {
  let h: Harness;
  let files: HttpsFiles;
  let welcome: number;

  beforeAll(async () => {
    files = await startHttpsFiles();
    files.route("/talk.wav", serveBytes(silentWav(95)));
    // the length sits behind more bytes than the bot reads; the service reads it all
    files.route("/padded.wav", serveBytes(silentWav(95, linkProbeMaxBytes + 64 * 1024)));
    files.route("/long.wav", serveBytes(silentWav(6 * 60)));
    files.route("/retried.wav", serveBytes(silentWav(95)));
    // 95 seconds when the bot reads it, 250 by the time the file is downloaded to be sent
    const short = silentWav(95);
    const long = silentWav(250);
    files.route("/changing.wav", (req, res) =>
      serveBytes(files.hits.get("/changing.wav") === 1 ? short : long)(req, res),
    );
    // a minute by its header, then more bytes than the download cap, sent without a length
    const big = Buffer.concat([silentWav(60), Buffer.alloc(downloadCap)]);
    files.route("/big.wav", (_req, res) => {
      res.writeHead(200, { "content-type": "audio/wav" });
      res.end(big);
    });
    // a public address that sends the bot on to a private one (127.0.0.2 is not taken for public here)
    files.route("/to-private.wav", (_req, res) => {
      res.writeHead(302, { location: `https://127.0.0.2:${files.port}/talk.wav` }).end();
    });
    h = await startHarness({
      // links past 5 minutes are dubbed in parts (dub-parts.test.ts); here the longest is 5 minutes
      env: { WELCOME_CREDITS: String(credits(120)), DUB_MAX_MINUTES: "5" },
      linkProbe: {
        ca: files.ca,
        allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a),
        download: { maxBytes: downloadCap },
      },
      simulator: { fetch: fetchTrusting(files.ca) },
    });
    welcome = h.config.welcomeCredits;
  });
  afterAll(async () => {
    await h?.stop();
    await files?.close();
  });

  async function newUser(): Promise<TestUser> {
    const user = h.tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    return user;
  }

  async function confirm(user: TestUser, panel: BotMessage) {
    await user.press(byData("cv:ok"), { message: panel });
    return eventually(async () => (await h.runtime.generations.recent(user.id, 1))[0]);
  }

  /** the dubbing creates the simulator received for a generation (by the gid in their metadata) */
  function dubCreates(gid: string): Array<{ source_url: string }> {
    return h.sim.requests
      .filter((r) => r.method === "POST" && r.path.endsWith("/audio/dubbing"))
      .map((r) => JSON.parse(r.body) as { source_url: string; metadata?: { gid?: string } })
      .filter((b) => b.metadata?.gid === gid);
  }
  const dubTasks = (gid: string) => h.sim.tasks().filter((t) => t.metadata?.gid === gid);

  async function holdOf(key: string) {
    const [row] = await h.runtime.db.select().from(holds).where(eq(holds.key, key));
    return row;
  }

  test("a 95-second link is priced and held for 2 minutes: a new user's welcome credits pay for it", async () => {
    expect(welcome).toBe(credits(120));
    expect(credits(95)).toBe(credits(120));
    expect(credits(95)).toBeLessThanOrEqual(welcome);
    expect(credits(300)).toBeGreaterThan(welcome);
    const user = await newUser();
    await user.send(`/dub ${files.url}/talk.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("🎙 Dubbing")(m));
    expect(plain(panel.text)).toContain("Length: 1:35");
    expect(plain(panel.text)).toContain(`Price: ${credits(95)} credits`);
    // while the link was read, the same message said so
    expect(panel.history.some((v) => plain(v.text).includes("Reading the link"))).toBe(true);
    const g = await confirm(user, panel);
    expect(g.price).toBe(credits(95));
    expect(g.params).toMatchObject({ operation: "dub", durationSeconds: 95, source: { kind: "url" } });
    expect(await holdOf(g.holdKey)).toMatchObject({ amount: credits(95), userId: user.id });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0, held: credits(95) });

    const result = await user.waitFor((m) => m.audio !== undefined || m.video !== undefined, {
      timeoutMs: 30_000,
    });
    // the languages by their names in the user's language, not by their codes
    expect(plain(result.caption)).toContain("Dubbed into English");
    const done = await generationIn(h, user.id, "delivered");
    expect(done.measuredSeconds).toBe(95);
    expect(done.charged).toBe(credits(95));
    expect(await holdOf(g.holdKey)).toMatchObject({ state: "charged", chargedAmount: credits(95) });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
    // the service got our copy through the file proxy, never the user's link
    const sent = dubCreates(g.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.source_url.startsWith(`${h.config.publicUrl}/files/`)).toBe(true);
    expect(sent[0]!.source_url).not.toContain("talk.wav");
    expect(dubTasks(g.id)).toHaveLength(1);
  });

  test("a link whose length cannot be read is held for 5 minutes; the measured length settles it", async () => {
    const user = await newUser();
    await h.runtime.ledger.grant({ userId: user.id, amount: 100, key: `dub-links-${user.id}` });
    const before = (await h.runtime.ledger.account(user.id)).available;
    await user.send(`/dub ${files.url}/padded.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("🎙 Dubbing")(m));
    expect(plain(panel.text)).toContain("Length: unknown");
    // charged for the length measured: the price may fall, and says so
    expect(plain(panel.text)).toContain(`Price: up to ${credits(300)} credits`);
    const g = await confirm(user, panel);
    expect(g.price).toBe(credits(300));
    expect(g.params).not.toHaveProperty("durationSeconds");
    expect(await holdOf(g.holdKey)).toMatchObject({ amount: credits(300) });

    await user.waitFor((m) => m.audio !== undefined || m.video !== undefined, { timeoutMs: 30_000 });
    const done = await generationIn(h, user.id, "delivered");
    expect(done.measuredSeconds).toBe(95);
    // the difference comes back: only the measured 2 minutes are paid
    expect(done.charged).toBe(credits(95));
    expect(await holdOf(g.holdKey)).toMatchObject({ state: "charged", chargedAmount: credits(95) });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: before - credits(95),
      held: 0,
    });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  });

  test("a link that is longer when downloaded to be sent is not sent: the hold comes back and the user is told", async () => {
    const user = await newUser();
    await h.runtime.ledger.grant({ userId: user.id, amount: 100, key: `dub-links-${user.id}` });
    const before = (await h.runtime.ledger.account(user.id)).available;
    await user.send(`/dub ${files.url}/changing.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("🎙 Dubbing")(m));
    expect(plain(panel.text)).toContain(`Price: ${credits(95)} credits`);
    const g = await confirm(user, panel);
    expect(g.price).toBe(credits(95));
    expect(credits(250)).toBeGreaterThan(credits(95));
    await user.waitFor(says("The file is longer now (4 min 10 s)"), { timeoutMs: 30_000 });
    const ended = await generationIn(h, user.id, "failed");
    expect(ended.error).toMatchObject({ reason: "source_longer", seconds: 250 });
    expect(ended.taskId).toBeNull();
    expect(ended.charged ?? 0).toBe(0);
    // the probe, then the one download that measured 250 s
    expect(files.hits.get("/changing.wav")).toBe(2);
    // nothing reached the service
    expect(dubCreates(g.id)).toEqual([]);
    expect(dubTasks(g.id)).toEqual([]);
    expect(await holdOf(g.holdKey)).toMatchObject({ state: "released" });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: before, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  });

  test("a link whose file is over the download cap is not sent: the hold comes back and the limit is said", async () => {
    const user = await newUser();
    await user.send(`/dub ${files.url}/big.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("🎙 Dubbing")(m));
    expect(plain(panel.text)).toContain("Length: 1:00");
    const g = await confirm(user, panel);
    // a length of whole minutes read: held for a second more (the started minute it may begin)
    const held = quote(prices, { operation: "dub", durationSeconds: 60 });
    expect(g.price).toBe(held.ok ? held.credits : Number.NaN);
    await user.waitFor(says(`larger than the ${downloadCap / 1_000_000} MB the studio accepts`), {
      timeoutMs: 30_000,
    });
    const ended = await generationIn(h, user.id, "failed");
    expect(ended.error).toMatchObject({ reason: "source_too_large", maxBytes: downloadCap });
    expect(dubCreates(g.id)).toEqual([]);
    expect(dubTasks(g.id)).toEqual([]);
    expect(await holdOf(g.holdKey)).toMatchObject({ state: "released" });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: welcome, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
    // nothing half-downloaded is left to be taken for the file
    expect(await h.runtime.store.findInput(g.id)).toBeNull();
  });

  test("a send that fails after the download is retried with the kept copy: the link is not downloaded again", async () => {
    const user = await newUser();
    // every call of the first submit attempt (the client's own retries included) fails: nothing is registered
    h.sim.faults.nextCreate({ status: 503, operation: "dub", times: 4 });
    await user.send(`/dub ${files.url}/retried.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("🎙 Dubbing")(m));
    const g = await confirm(user, panel);
    await user.waitFor((m) => m.audio !== undefined || m.video !== undefined, { timeoutMs: 30_000 });
    const done = await generationIn(h, user.id, "delivered");
    expect(done.attempts).toBeGreaterThan(1);
    // the probe and one download; the second attempt sent the copy kept by the first
    expect(files.hits.get("/retried.wav")).toBe(2);
    const sent = dubCreates(g.id);
    expect(sent.length).toBeGreaterThan(1);
    expect(new Set(sent.map((b) => new URL(b.source_url).origin))).toEqual(new Set([h.config.publicUrl]));
    expect(dubTasks(g.id)).toHaveLength(1);
    expect(done.charged).toBe(credits(95));
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: welcome - credits(95),
      held: 0,
    });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  });

  test("a link longer than DUB_MAX_MINUTES (5 here) is explained and another file is asked for; nothing is held", async () => {
    const user = await newUser();
    await user.send("/dub");
    const ask = await user.waitFor(says("Send the audio or video to dub"));
    await user.send(`${files.url}/long.wav`);
    await user.waitFor(says("This file is 6 min 0 s long; the studio dubs files of up to 5 minutes"), {
      after: ask,
    });
    const again = await user.waitFor(says("Send the audio or video to dub"), { after: ask });
    expect(again.message_id).toBeGreaterThan(ask.message_id);
    await user.send(`${files.url}/talk.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("Length: 1:35")(m), { after: again });
    expect(plain(panel.text)).toContain(`Price: ${credits(95)} credits`);
    expect(await h.runtime.generations.recent(user.id, 1)).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: welcome, held: 0 });
  });

  test("a link to a private address is refused at the link step, in the user's language: no price, no hold, no generation", async () => {
    const user = await newUser();
    const before = files.hits.get("/talk.wav") ?? 0;
    const refusal = says("This link leads to a private or local address");
    // with the command: refused, then the link step asks for a file or another link
    const command = await user.send("/dub https://10.1.2.3/talk.wav");
    await user.waitFor(refusal, { after: command });
    let ask = await user.waitFor(says("Send the audio or video to dub"), { after: command });
    for (const link of [
      "https://192.168.1.20/talk.wav",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/talk.wav",
      "https://[fd12:3456::1]/talk.wav",
      "https://[::ffff:10.0.0.1]/talk.wav",
      // the address reached through a redirect counts as much as the one written
      `${files.url}/to-private.wav`,
    ]) {
      const sent = await user.send(link);
      await user.waitFor(refusal, { after: sent });
      ask = await user.waitFor(says("Send the audio or video to dub"), { after: sent });
    }
    expect(files.hits.get("/to-private.wav")).toBe(1);
    expect(files.hits.get("/talk.wav") ?? 0).toBe(before);
    // never priced
    expect(user.messages().filter((m) => m.message_id > command.message_id && isPanel(m))).toEqual([]);
    expect(await h.runtime.generations.recent(user.id, 1)).toEqual([]);
    expect(await h.runtime.db.select().from(holds).where(eq(holds.userId, user.id))).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: welcome, held: 0 });
    // still at the link step: a public link goes on to its price
    await user.send(`${files.url}/talk.wav`);
    const panel = await user.waitFor((m) => isPanel(m) && says("Length: 1:35")(m), { after: ask });
    expect(plain(panel.text)).toContain(`Price: ${credits(95)} credits`);

    const persian = h.tg.user({ language: "fa" });
    await persian.send("/start");
    await persian.waitFor((m) => Boolean(m.text));
    const asked = await persian.send("/dub https://10.1.2.3/talk.wav");
    await persian.waitFor(says("این لینک به یک نشانی خصوصی یا محلی می‌رسد"), { after: asked });
    expect(await h.runtime.generations.recent(persian.id, 1)).toEqual([]);
  });
});
