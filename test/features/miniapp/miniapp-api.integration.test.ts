import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import type { ImageOptions } from "../../../src/domain/generations/image-options";
import { maxDubSeconds, quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable, type PriceQuote } from "../../../src/domain/pricing/prices";
import { collectStats } from "../../../src/features/admin/stats";
import type {
  BroadcastsResponse,
  ComposerResponse,
  CreditsResponse,
  GalleryResponse,
  GenerateResponse,
  MeResponse,
  PresetResponse,
  QuoteResponse,
  ResultResponse,
  StatsResponse,
  UploadResponse,
} from "../../../src/features/miniapp/contract";
import { parsePayload } from "../../../src/features/payments/packs";
import { imageSettings } from "../../../src/features/requests/image-settings";
import { holds } from "../../../src/platform/db/schema";
import { translateFor } from "../../../src/platform/i18n/i18n";
import { encodePng } from "../../../src/platform/lib/png";
import { eventually, type Harness, redisUrl, startedUser, startHarness } from "../../support/harness";
import { probe, speechLike } from "../../support/media-files";
import { says } from "../../support/messages";
import { appClient } from "../../support/miniapp";

const WELCOME = 100;
const picture = { operation: "image", model: "nano-core-2", imageSize: "1:1", numImages: 1 } as const;
const defaultPrices = createPrices(loadPriceTable());
const cost = (quote: PriceQuote) => (quote.ok ? quote.credits : Number.NaN);
/** the price of `picture`, from the default table: a price change moves the tests with it */
const picturePrice = cost(defaultPrices.image("nano-core-2", undefined, 1));

/** The Mini App's API on the real runtime: the same generations, ledger, delivery and /stats as the chat. */
describe("the Mini App's API", () => {
  let h: Harness;
  let admin: TestUser;
  beforeAll(async () => {
    // the stand-in numbers users from 5000000001: the first one made is the admin
    h = await startHarness({ env: { ADMIN_IDS: "5000000001" } });
    admin = await startedUser(h);
  });
  afterAll(async () => h?.stop());

  /** How many uploads the API keeps (in Redis, below the runtime's prefix). */
  async function keptUploads(): Promise<number> {
    const redis = new Redis(redisUrl);
    try {
      return (await redis.keys(`${h.config.redis.prefix}:miniapp:input:*`)).length;
    } finally {
      await redis.quit();
    }
  }

  /** A picture made through the app, arrived in the chat; its generation id. */
  async function madeInApp(user: TestUser, prompt: string): Promise<string> {
    const app = appClient(h, user);
    const draft = await app.draft();
    const made = await app.post<GenerateResponse>("/generate", { draft, request: { ...picture, prompt } });
    expect(made.status).toBe(200);
    await user.waitFor((m) => Boolean(m.photo) && (m.caption ?? "").includes(prompt));
    await eventually(async () =>
      (await h.runtime.generations.get(made.body.id))?.state === "delivered" ? true : undefined,
    );
    return made.body.id;
  }

  test("/me: who initData names, the balance, not an admin, the packs for sale", async () => {
    const user = await startedUser(h);
    const me = await appClient(h, user).get<MeResponse>("/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user: { id: user.id, firstName: "Tester", language: "en" },
      balance: { available: WELCOME, held: 0 },
      isAdmin: false,
      packs: h.config.creditPacks.map(({ id, credits, bonus, stars }) => ({ id, credits, bonus, stars })),
      words: expect.any(Object),
    });
    // the chat's words, a value's place marked for the page
    expect(me.body.words).toMatchObject({
      "label-aspect": "Aspect ratio",
      price: "💳 Price: {price} credits (balance: {available})",
      "confirm-up-to": "✅ Confirm · up to {price} credits",
      cost: "{cost} credits",
    });
    expect((await appClient(h, admin).get<MeResponse>("/me")).body.isAdmin).toBe(true);
  });

  test("a picture made in the app arrives in the chat and in the gallery, at the quoted price, with its options", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const quote = await app.post<QuoteResponse>("/quote", { request: picture });
    expect(quote.body).toMatchObject({ credits: picturePrice, balance: { available: WELCOME, held: 0 } });

    const id = await madeInApp(user, "a red lighthouse");
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: WELCOME - picturePrice,
      held: 0,
    });

    const gallery = await app.get<GalleryResponse>("/gallery");
    expect(gallery.status).toBe(200);
    expect(gallery.body.next).toBeNull();
    expect(gallery.body.items).toHaveLength(1);
    const [item] = gallery.body.items;
    expect(item).toMatchObject({ id, operation: "image", prompt: "a red lighthouse", cost: picturePrice });
    expect(item?.media).toHaveLength(1);
    expect(item?.media[0]?.kind).toBe("photo");
    // through our signed file URLs: the bytes of the stored result
    const file = await fetch(item!.media[0]!.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^image\//);

    const result = await app.get<ResultResponse>(`/results/${id}`);
    expect(result.body).toMatchObject({
      id,
      cost: picturePrice,
      upscale: false,
      options: { model: "nano-core-2", imageSize: "1:1", numImages: 1 },
      actions: { again: true, edit: true, upscale: true },
    });
  });

  test("Create starts from what the chat remembers, and what the app confirms the chat remembers", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const fresh = await app.get<ComposerResponse>("/composer");
    expect(fresh.body).toMatchObject({
      remembered: [],
      promptMaxLength: 2000,
      dubMaxMinutes: 60,
      start: {
        image: { model: "nano-core-2", imageSize: "9:16", numImages: 1 },
        dub: { targetLanguage: "en" },
      },
    });

    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: {
        operation: "image",
        model: "alpha-speed",
        imageSize: "1:1",
        numImages: 1,
        prompt: "a harbour",
      },
    });
    // the balance the page shows from now on, with this request's credits taken
    const price = cost(defaultPrices.image("alpha-speed", undefined, 1));
    expect(made.body).toMatchObject({ created: true, price, balance: { available: WELCOME - price } });
    const next = await app.get<ComposerResponse>("/composer");
    expect(next.body.remembered).toEqual(["image"]);
    expect(next.body.start.image).toEqual({ model: "alpha-speed", imageSize: "1:1", numImages: 1 });
    await user.send("/settings");
    await user.waitFor(says("alpha-speed · 1:1"));
    await user.waitFor((m) => Boolean(m.photo) && (m.caption ?? "").includes("a harbour"));
  });

  test("/quote prices each choice as the chat's pickers do", async () => {
    const user = await startedUser(h);
    const prices = createPrices(loadPriceTable(h.config.pricesFile));
    const t = (key: string, vars?: Record<string, string | number>) => translateFor("en", key, vars);
    const options: ImageOptions = { model: "gamma-5-pro", imageSize: "1:1", resolution: "2K", numImages: 2 };
    const quoted = await appClient(h, user).post<QuoteResponse>("/quote", {
      request: { operation: "image", model: options.model, resolution: options.resolution, numImages: 2 },
    });
    expect(quoted.body.credits).toBe(cost(prices.image("gamma-5-pro", "2K", 2)));
    const asApp = (choices: Record<string, number | null> | undefined) =>
      Object.entries(choices ?? {}).map(([label, price]) =>
        price === null ? label : t("cv-choice-price", { label, price }),
      );
    const chat = imageSettings<{ options: ImageOptions }>(t, prices);
    const asChat = (id: string) =>
      chat
        .find((s) => s.id === id)
        ?.choices({ options })
        .map((c) => c.label);
    expect(asApp(quoted.body.choices.model)).toEqual(asChat("m"));
    expect(asApp(quoted.body.choices.resolution)).toEqual(asChat("r"));
    expect(asApp(quoted.body.choices.numImages)).toEqual(asChat("n"));
  });

  test("the gallery pages newest first by its cursor, and filters by operation", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push(await madeInApp(user, `page picture ${n}`));
    const first = await app.get<GalleryResponse>("/gallery?limit=2");
    expect(first.body.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.next).toBe(ids[1]);
    const second = await app.get<GalleryResponse>(`/gallery?limit=2&before=${first.body.next}`);
    expect(second.body.items.map((i) => i.id)).toEqual([ids[0]]);
    expect(second.body.next).toBeNull();
    expect((await app.get<GalleryResponse>("/gallery?operation=video")).body.items).toEqual([]);
    expect((await app.get<GalleryResponse>("/gallery?operation=image")).body.items).toHaveLength(3);
  });

  test("presets are the chat's result buttons: again, edit its pictures, ⬆️ 4K with the chat's model", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const id = await madeInApp(user, "a green door");
    const again = await app.get<PresetResponse>(`/results/${id}/preset?action=again`);
    expect(again.body).toEqual({
      operation: "image",
      request: { model: "nano-core-2", imageSize: "1:1", numImages: 1, prompt: "a green door" },
      upscale: false,
    });
    const edit = await app.get<PresetResponse>(`/results/${id}/preset?action=edit`);
    expect(edit.body).toEqual({
      operation: "edit",
      request: { images: [{ kind: "result", id, picture: 0 }], imageSize: "1:1" },
      upscale: false,
    });
    const up = await app.get<PresetResponse>(`/results/${id}/preset?action=upscale&picture=0`);
    expect(up.body).toMatchObject({
      operation: "edit",
      upscale: true,
      // the cheapest model making 4K pictures in the default table, as the chat's ⬆️ 4K panel says
      request: { model: "beta-image-2-5-flare", resolution: "4K", numImages: 1, imageSize: "1:1" },
    });
    expect((await app.get(`/results/${id}/preset?action=upscale&picture=3`)).status).toBe(409);

    // the 4K preset confirmed as it is: an edit of the result's own picture, charged its quoted price
    const { operation: _op, ...request } = up.body.request as Record<string, unknown>;
    const before = await h.runtime.ledger.account(user.id);
    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: { operation: "edit", ...request },
    });
    expect(made.status).toBe(200);
    const upscalePrice = cost(defaultPrices.image("beta-image-2-5-flare", "4K", 1));
    expect(made.body.price).toBe(upscalePrice);
    await eventually(async () =>
      (await h.runtime.generations.get(made.body.id))?.state === "delivered" ? true : undefined,
    );
    expect((await h.runtime.ledger.account(user.id)).available).toBe(before.available - upscalePrice);
  });

  test("send to chat: the result comes again by its file ids, with the result's buttons, at no cost", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const id = await madeInApp(user, "a blue kite");
    const g = await h.runtime.generations.get(id);
    const before = await h.runtime.ledger.account(user.id);
    const sent = await app.post(`/results/${id}/resend`);
    expect(sent).toEqual({ status: 200, body: { sent: true } });
    const again = await user.waitFor(
      (m) => m.photo?.at(-1)?.file_id === g?.fileIds?.[0] && !g?.deliveredMessageIds?.includes(m.message_id),
    );
    expect(again.caption).toBe("a blue kite");
    expect(JSON.stringify(again.reply_markup)).toContain(`rg:${id}`);
    expect(await h.runtime.ledger.account(user.id)).toEqual(before);
  });

  test("an upload from the device is an input of an edit; a file that is no picture or sound is refused", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const png = encodePng(16, 16, () => new Uint8Array(16 * 3).fill(200));
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "mine.png");
    const uploaded = await app.upload<UploadResponse>("/uploads", form);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.media).toBe("photo");
    expect((await fetch(uploaded.body.input.url!)).status).toBe(200);

    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: {
        operation: "edit",
        prompt: "make it blue",
        model: "nano-core-2",
        imageSize: "1:1",
        numImages: 1,
        images: [{ kind: "upload", id: uploaded.body.input.id }],
      },
    });
    expect(made.status).toBe(200);
    const g = await eventually(async () => {
      const row = await h.runtime.generations.get(made.body.id);
      return row?.state === "delivered" ? row : undefined;
    });
    const params = h.runtime.generations.paramsOf(g);
    expect(params.operation === "edit" && params.images[0]?.kind).toBe("telegram");

    const text = new FormData();
    text.set("file", new Blob(["hello"], { type: "text/plain" }), "notes.txt");
    const refused = await app.upload("/uploads", text);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid" });
    // another user cannot name this upload
    const other = appClient(h, await startedUser(h));
    const stolen = await other.post("/generate", {
      draft: await other.draft(),
      request: {
        operation: "edit",
        prompt: "x",
        model: "nano-core-2",
        imageSize: "1:1",
        numImages: 1,
        images: [{ kind: "upload", id: uploaded.body.input.id }],
      },
    });
    expect(stolen.status).toBe(404);
  });

  test("a file labelled a picture that is not one: 400 with the chat's words, nothing kept; a chat never started stays not_available", async () => {
    const user = await startedUser(h, "fa");
    const app = appClient(h, { id: user.id, language: "fa" });
    const keptBefore = await keptUploads();
    const fake = new FormData();
    fake.set("file", new Blob(["not a picture at all"], { type: "image/png" }), "fake.png");
    expect(await app.upload("/uploads", fake)).toEqual({
      status: 400,
      body: { error: "invalid", message: translateFor("fa", "cv-photo-not-image") },
    });
    expect(await keptUploads()).toBe(keptBefore);

    // a real picture for someone who never pressed Start: Telegram's "chat not found", as before
    const stranger = h.tg.user({ language: "en" });
    const png = encodePng(8, 8, () => new Uint8Array(8 * 3).fill(90));
    const real = new FormData();
    real.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "real.png");
    expect(await appClient(h, stranger).upload("/uploads", real)).toEqual({
      status: 409,
      body: { error: "not_available", message: translateFor("en", "error-generic") },
    });
    expect(await keptUploads()).toBe(keptBefore);
  });

  test("a sound uploaded for dubbing is held at its measured length, delivered to the chat and settled", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const mp3 = await readFile(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(mp3)], { type: "audio/mpeg" }), "voice.mp3");
    const uploaded = await app.upload<UploadResponse>("/uploads", form);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.media).toBe("audio");
    // the fixture is a 2 s tone (sandbox/simulator/fixtures/README.md); an MP3's frames round it up
    const seconds = uploaded.body.durationSeconds ?? Number.NaN;
    expect(seconds).toBeGreaterThanOrEqual(2);
    expect(seconds).toBeLessThanOrEqual(3);

    const prices = createPrices(loadPriceTable(h.config.pricesFile));
    const measured = quote(prices, { operation: "dub", durationSeconds: seconds });
    const longest = quote(prices, { operation: "dub", durationSeconds: maxDubSeconds });
    if (!measured.ok || !longest.ok) throw new Error("no dubbing price in the default table");
    // otherwise this test could not tell the measured length from the maximum
    expect(measured.credits).toBeLessThan(longest.credits);
    const source = { kind: "upload", id: uploaded.body.input.id } as const;
    const quoted = await app.post<QuoteResponse>("/quote", { request: { operation: "dub", source } });
    expect(quoted.body.credits).toBe(measured.credits);
    expect(quoted.body.upTo).toBe(measured.upTo === true);

    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: { operation: "dub", source, targetLanguage: "de" },
    });
    expect(made.status).toBe(200);
    expect(made.body.price).toBe(measured.credits);
    const dubbed = await user.waitFor((m) => m.audio !== undefined);
    expect(dubbed.audio?.file_id).toBeTruthy();
    const g = await eventually(async () => {
      const row = await h.runtime.generations.get(made.body.id);
      return row?.state === "delivered" ? row : undefined;
    });
    expect(g.price).toBe(measured.credits);
    const [hold] = await h.runtime.db.select().from(holds).where(eq(holds.userId, user.id));
    expect(hold).toMatchObject({ amount: measured.credits, state: "charged", chargedAmount: g.charged });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: WELCOME - (g.charged ?? Number.NaN),
      held: 0,
    });
  });

  test("a 7-minute sound uploaded for dubbing is priced as its parts' sum and comes back as one audio of its length", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const dir = await mkdtemp(join(tmpdir(), "msb-app-dub-"));
    const path = join(dir, "lecture.mp3");
    await speechLike(path, 420);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await readFile(path))], { type: "audio/mpeg" }), "lecture.mp3");
    const uploaded = await app.upload<UploadResponse>("/uploads", form);
    expect(uploaded.status).toBe(200);
    const source = { kind: "upload", id: uploaded.body.input.id } as const;
    const prices = createPrices(loadPriceTable(h.config.pricesFile));
    // the app measures the upload itself (rounded up to the second), as the chat takes Telegram's length
    expect(uploaded.body.durationSeconds).toBeGreaterThanOrEqual(420);
    const parts = quote(prices, { operation: "dub", durationSeconds: uploaded.body.durationSeconds });
    if (!parts.ok) throw new Error("no dubbing price in the default table");
    const quoted = await app.post<QuoteResponse>("/quote", { request: { operation: "dub", source } });
    expect(quoted.body.credits).toBe(parts.credits);
    expect(quoted.body.upTo).toBe(parts.upTo === true);
    // a long dub costs more than the welcome credits: the user bought some first
    await h.runtime.ledger.grant({ userId: user.id, amount: parts.credits, key: `app-dub-${user.id}` });
    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: { operation: "dub", source, targetLanguage: "de" },
    });
    expect(made.status).toBe(200);
    const dubbed = await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 60_000 });
    await writeFile(join(dir, "dubbed.mp3"), h.tg.fileBytes(dubbed.audio!.file_id));
    expect(Math.abs((await probe(join(dir, "dubbed.mp3"))).seconds - 420)).toBeLessThan(1);
    const g = await eventually(async () => {
      const row = await h.runtime.generations.get(made.body.id);
      return row?.state === "delivered" ? row : undefined;
    });
    expect(g.partsTotal).toBe(2);
    expect(g.charged).toBe(parts.credits);
    // what the service billed for the parts ≤ charged ≤ held
    expect(g.serviceCredits ?? Number.NaN).toBeLessThanOrEqual(g.charged ?? Number.NaN);
    expect(g.charged).toBeLessThanOrEqual(g.price);
    await rm(dir, { recursive: true, force: true });
  });

  test("credits: balance, held and the latest movements; Buy gives an invoice link with /buy's payload and price", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    await madeInApp(user, "a yellow sun");
    const credits = await app.get<CreditsResponse>("/credits");
    expect(credits.body.balance).toEqual({ available: WELCOME - picturePrice, held: 0 });
    // one line per request: its last movement (the charge), not its hold as well
    expect(credits.body.entries.map((e) => e.label)).toEqual(["charge", "welcome"]);
    // each movement in /balance's words, naming the request it was for
    const [charge] = credits.body.entries;
    expect(charge?.text).toMatch(new RegExp(`^✔️ ${picturePrice} reserved credits spent on .*a yellow sun`));
    expect(credits.body.entries.at(-1)?.text).toBe(`+${WELCOME} welcome credits`);

    const pack = h.config.creditPacks[1]!;
    const bought = await app.post<{ invoiceLink: string }>("/buy", { packId: pack.id });
    expect(bought.status).toBe(200);
    expect(bought.body.invoiceLink).toMatch(/^https:\/\/t\.me\//);
    const call = h.tg.callsOf("createInvoiceLink").at(-1);
    expect(parsePayload(String(call?.params.payload))).toEqual({
      product: "pack",
      id: pack.id,
      credits: pack.credits + pack.bonus,
      stars: pack.stars,
      userId: user.id,
    });
    expect(call?.params.currency).toBe("XTR");
    expect((await app.post("/buy", { packId: "nope" })).status).toBe(404);
  });

  test("plans: /credits lists them in /plans' words; Subscribe gives a subscription link; paid, the plan shows as /balance says it", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const plan = h.config.plans[0]!;
    const before = await app.get<CreditsResponse>("/credits");
    expect(before.body.plan).toBeNull();
    expect(before.body.plans).toEqual([
      {
        ...plan,
        text: translateFor("en", "plan-summary", {
          plan: plan.id,
          credits: plan.credits,
          discount: plan.discount,
          stars: plan.stars,
        }),
      },
    ]);
    const subscribed = await app.post<{ invoiceLink: string }>("/buy", { planId: plan.id });
    expect(subscribed.status).toBe(200);
    const call = h.tg.callsOf("createInvoiceLink").at(-1);
    expect(call?.params).toMatchObject({ currency: "XTR", subscription_period: 2_592_000 });
    expect(parsePayload(String(call?.params.payload))).toMatchObject({
      product: "plan",
      id: plan.id,
      userId: user.id,
    });
    expect((await app.post("/buy", { planId: "nope" })).status).toBe(404);
    // one thing at a time: a pack and a plan together are not a request
    expect((await app.post("/buy", { packId: "s", planId: plan.id })).status).toBe(400);

    const paid = await user.pay(subscribed.body.invoiceLink);
    if (!paid.ok) throw new Error("the subscription was not paid");
    const until = paid.message.successful_payment?.subscription_expiration_date ?? 0;
    const after = await eventually(async () => {
      const answer = await app.get<CreditsResponse>("/credits");
      return answer.body.plan ? answer.body : undefined;
    });
    const date = new Date(until * 1000).toISOString().slice(0, 10);
    expect(after.plan).toEqual({
      id: plan.id,
      until: new Date(until * 1000).toISOString(),
      renews: true,
      text: translateFor("en", "plan-active-renews", { plan: plan.id, date }),
    });
    expect(after.entries[0]).toMatchObject({ label: "plan", amount: plan.credits });
  });

  test("admins: /stats' numbers as today and per day; broadcasts with their totals; others get 404", async () => {
    const user = await startedUser(h);
    await madeInApp(user, "an admin's chart");
    const app = appClient(h, admin);
    const stats = await app.get<StatsResponse>("/admin/stats?days=7");
    expect(stats.status).toBe(200);
    expect(stats.body.today).toEqual(await collectStats(h.runtime.db));
    expect(stats.body.days).toHaveLength(7);
    const today = stats.body.days.at(-1)!;
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    const delivered = today.generations
      .filter((g) => g.state === "delivered")
      .reduce((s, g) => s + g.count, 0);
    expect(delivered).toBe(
      stats.body.today.generations
        .filter((g) => g.state === "delivered")
        .reduce((s, g) => s + g.counts.today, 0),
    );
    expect(today.spent).toBe(stats.body.today.credits.charged - stats.body.today.credits.refunded);

    const broadcasts = await app.get<BroadcastsResponse>("/admin/broadcasts");
    expect(broadcasts).toEqual({ status: 200, body: { items: [] } });

    const others = appClient(h, user);
    expect((await others.get("/admin/stats")).status).toBe(404);
    expect((await others.get("/admin/broadcasts")).status).toBe(404);
  });
});
