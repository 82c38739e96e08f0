import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import type { GenerateResponse } from "../../../src/features/miniapp/contract";
import { generations, ledgerEntries, users } from "../../../src/platform/db/schema";
import { translateFor } from "../../../src/platform/i18n/i18n";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { appCall, appClient, initDataFor } from "../../support/miniapp";

const picture = { operation: "image", model: "nano-core-2", imageSize: "1:1", numImages: 1, prompt: "a cat" };

/** Every endpoint, as a call with the initData given. */
const endpoints: Array<{ path: string; json?: unknown }> = [
  { path: "/me" },
  { path: "/gallery" },
  { path: "/composer" },
  { path: "/credits" },
  { path: "/admin/stats" },
  { path: "/quote", json: { request: { operation: "image", model: "nano-core-2", numImages: 1 } } },
  { path: "/generate", json: { draft: "forged-draft", request: picture } },
  { path: "/buy", json: { packId: "s" } },
];

/**
 * Who may do what through the Mini App: only a fresh initData signed with the
 * bot token names a caller; a caller reaches only their own results; a banned
 * user gets the chat's banned answer; a draft creates one generation.
 */
describe("the Mini App's API refuses", () => {
  let h: Harness;
  let operator: TestUser;
  let victim: TestUser;
  beforeAll(async () => {
    // the stand-in numbers users from 5000000001: the first one made is an admin
    h = await startHarness({ env: { ADMIN_IDS: "5000000001" } });
    operator = await startedUser(h);
    victim = await startedUser(h);
  });
  afterAll(async () => h?.stop());

  const rows = async () => ({
    generations: (await h.runtime.db.select({ n: count() }).from(generations))[0]?.n,
    entries: (await h.runtime.db.select({ n: count() }).from(ledgerEntries))[0]?.n,
    users: (await h.runtime.db.select({ n: count() }).from(users))[0]?.n,
    telegramCalls: h.tg.callsOf("sendMessage").length + h.tg.callsOf("createInvoiceLink").length,
  });

  test("a forged, altered, expired or missing initData: 401 and nothing else happens", async () => {
    const stranger = { id: 4_000_000_001 };
    const valid = initDataFor(victim, h.tg.token);
    const variants: Record<string, { authorization?: string; initData?: string }> = {
      missing: {},
      "another scheme": { authorization: `Bearer ${valid}` },
      "signed with another token": {
        initData: initDataFor(victim, "7000000001:AAOtherTokenForTests_0123456789abcdefg"),
      },
      "user id altered": { initData: valid.replace(`%22id%22%3A${victim.id}`, `%22id%22%3A${stranger.id}`) },
      "hash altered": {
        initData: valid.replace(/hash=([0-9a-f])/, (_, c: string) => `hash=${c === "0" ? "1" : "0"}`),
      },
      "signed 25 hours ago": {
        initData: initDataFor(victim, h.tg.token, new Date(Date.now() - 25 * 3600_000)),
      },
      "not init data": { initData: "user=1&hash=00" },
    };
    // the alterations did alter
    expect(variants["user id altered"]!.initData).not.toBe(valid);
    expect(variants["hash altered"]!.initData).not.toBe(valid);
    const before = await rows();
    for (const [name, auth] of Object.entries(variants)) {
      for (const e of endpoints) {
        const answer = await appCall(h, e.path, { ...auth, ...(e.json ? { json: e.json } : {}) });
        expect({ name, path: e.path, ...answer }).toEqual({
          name,
          path: e.path,
          status: 401,
          body: { error: "unauthorized" },
        });
      }
    }
    expect(await rows()).toEqual(before);
    expect(await h.runtime.users.get(stranger.id)).toBeUndefined();
    // the same call with the valid initData goes through
    expect((await appCall(h, "/me", { initData: valid })).status).toBe(200);
  });

  test("another user's result: 404 to read, preset, send or use it, as one that does not exist", async () => {
    const app = appClient(h, victim);
    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: picture,
    });
    expect(made.status).toBe(200);
    const id = made.body.id;
    await eventually(async () =>
      (await h.runtime.generations.get(id))?.state === "delivered" ? true : undefined,
    );
    expect((await app.get(`/results/${id}`)).status).toBe(200);

    const thief = await startedUser(h);
    const other = appClient(h, thief);
    const notFound = { status: 404, body: { error: "not_found" } };
    expect(await other.get(`/results/${id}`)).toEqual(notFound);
    expect(await other.get(`/results/${id}/preset?action=again`)).toEqual(notFound);
    expect(await other.post(`/results/${id}/resend`)).toEqual(notFound);
    expect(await other.get("/results/00000000-0000-4000-8000-000000000000")).toEqual(notFound);
    expect(await other.get("/results/not-an-id")).toEqual(notFound);
    const edit = {
      operation: "edit",
      prompt: "mine now",
      model: "nano-core-2",
      imageSize: "1:1",
      numImages: 1,
    };
    expect(
      await other.post("/generate", {
        draft: await other.draft(),
        request: { ...edit, images: [{ kind: "result", id, picture: 0 }] },
      }),
    ).toEqual(notFound);
    expect((await other.get<{ items: unknown[] }>("/gallery")).body.items).toEqual([]);
    expect(await h.runtime.generations.recent(thief.id, 5)).toEqual([]);
    // nothing of the victim's was sent to the thief
    expect(h.tg.callsOf("sendPhoto").filter((c) => c.params.chat_id === thief.id)).toEqual([]);
  });

  test("a banned user gets the chat's banned notice in their language, and nothing is made", async () => {
    const user = await startedUser(h, "fa");
    await h.runtime.users.ban(user.id);
    const app = appClient(h, { id: user.id, language: "fa" });
    const banned = { status: 403, body: { error: "banned", message: translateFor("fa", "banned-notice") } };
    expect(await app.get("/me")).toEqual(banned);
    expect(await app.post("/generate", { draft: "banned-draft", request: picture })).toEqual(banned);
    expect(await h.runtime.generations.recent(user.id, 5)).toEqual([]);
    await h.runtime.users.unban(user.id);
    expect((await app.get("/me")).status).toBe(200);
  });

  test("two quick presses with one draft: one generation, one charge", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const draft = await app.draft();
    const press = () => app.post<GenerateResponse>("/generate", { draft, request: picture });
    const [a, b] = await Promise.all([press(), press()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).toBe(b.body.id);
    expect([a.body.created, b.body.created].sort()).toEqual([false, true]);
    await eventually(async () =>
      (await h.runtime.generations.get(a.body.id))?.state === "delivered" ? true : undefined,
    );
    // a third press later, the same draft: still the one
    const c = await press();
    expect(c.body).toMatchObject({ id: a.body.id, created: false });
    expect(await h.runtime.generations.recent(user.id, 5)).toHaveLength(1);
    const charges = await h.runtime.db
      .select({ n: count() })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    // welcome, hold, charge
    expect(charges[0]?.n).toBe(3);
    const quote = createPrices(loadPriceTable()).image("nano-core-2", undefined, 1);
    expect((await h.runtime.ledger.account(user.id)).available).toBe(
      100 - (quote.ok ? quote.credits : Number.NaN),
    );
  });

  test("what spends shares the chat's per-user rate limit: past it, 429 and the chat's notice", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const answers = [];
    for (let i = 0; i < 22; i++) answers.push(await app.post("/buy", { packId: "none" }));
    // /start spent one of the window's 20
    expect(answers.filter((a) => a.status === 404)).toHaveLength(19);
    expect(answers.at(-1)).toEqual({
      status: 429,
      body: { error: "rate_limited", message: translateFor("en", "rate-limited"), retryAfterSeconds: 10 },
    });
  });

  test("a JSON body past what any request needs: 400 before it is read, and nothing is made", async () => {
    const user = await startedUser(h);
    const initData = initDataFor(user, h.tg.token);
    const before = await rows();
    // a valid request padded to a megabyte: refused for its size, not read into memory and parsed
    const pad = "x".repeat(1024 * 1024);
    for (const [path, json] of [
      ["/generate", { draft: "big-draft", request: picture, pad }],
      ["/quote", { request: { operation: "image", model: "nano-core-2", numImages: 1 }, pad }],
      ["/buy", { packId: "s", pad }],
    ] as const) {
      expect({ path, ...(await appCall(h, path, { initData, json })) }).toEqual({
        path,
        status: 400,
        body: { error: "invalid", message: "body: too large" },
      });
    }
    expect(await rows()).toEqual(before);
    expect(await h.runtime.generations.recent(user.id, 5)).toEqual([]);
  });

  test("presets keep inputs for the caller: they count in the rate limit, so their writes are bounded", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: picture,
    });
    await eventually(async () =>
      (await h.runtime.generations.get(made.body.id))?.state === "delivered" ? true : undefined,
    );
    const edit = {
      ...picture,
      operation: "edit",
      images: [{ kind: "result", id: made.body.id, picture: 0 }],
    };
    const edited = await app.post<GenerateResponse>("/generate", { draft: await app.draft(), request: edit });
    await eventually(async () =>
      (await h.runtime.generations.get(edited.body.id))?.state === "delivered" ? true : undefined,
    );
    // "again" on an edit keeps its pictures as new inputs in Redis, one key each, on every call
    const answers = [];
    for (let i = 0; i < 22; i++)
      answers.push(await app.get(`/results/${edited.body.id}/preset?action=again`));
    expect(answers[0]?.status).toBe(200);
    expect(answers.at(-1)).toEqual({
      status: 429,
      body: { error: "rate_limited", message: translateFor("en", "rate-limited"), retryAfterSeconds: 10 },
    });
  });

  test("random bodies, queries and ids never get a 5xx", async () => {
    // an admin: never rate limited, so every body reaches the checks
    const initData = initDataFor(operator, h.tg.token);
    const draft = await appClient(h, operator).draft();
    // mostly valid values, so that bodies get past the schema to the checks behind it
    const request = fc.record(
      {
        operation: fc.constantFrom("image", "edit", "video", "dub", "x"),
        prompt: fc.oneof(fc.constantFrom("a cat", "", " "), fc.string()),
        model: fc.oneof(fc.constantFrom("nano-core-2", "gamma-5-pro", "video-b-2"), fc.string()),
        imageSize: fc.oneof(fc.constantFrom("1:1", "16:9"), fc.string()),
        resolution: fc.oneof(fc.constantFrom("1K", "4K", "720p"), fc.string()),
        numImages: fc.integer({ min: 0, max: 5 }),
        duration: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.double()),
        aspectRatio: fc.constantFrom("16:9", "9:16", ""),
        targetLanguage: fc.constantFrom("en", "fa", "zz"),
        images: fc.array(
          fc.record({
            kind: fc.constantFrom("upload", "result"),
            id: fc.oneof(fc.uuid(), fc.string()),
            picture: fc.integer({ min: -1, max: 20 }),
          }),
          { maxLength: 4 },
        ),
        source: fc.record({ kind: fc.constantFrom("upload", "result"), id: fc.uuid(), picture: fc.nat(3) }),
      },
      // every key: zod drops those an operation does not have
      {},
    );
    const generate = fc.record({
      draft: fc.oneof(fc.constant(draft), fc.string()),
      request,
      expectedPrice: fc.option(fc.nat(50), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/generate", "/quote"), generate, async (path, body) => {
        const answer = await appCall(h, path, {
          initData,
          json: path === "/quote" ? { request: body.request } : body,
        });
        return answer.status < 500;
      }),
      { numRuns: 200 },
    );
    const paths = fc.constantFrom("/quote", "/generate", "/buy", "/results/x/resend", "/uploads");
    await fc.assert(
      fc.asyncProperty(paths, fc.jsonValue(), async (path, body) => {
        const answer = await appCall(h, path, { initData, json: body });
        return answer.status < 500;
      }),
      { numRuns: 100 },
    );
    const queries = fc.constantFrom(
      "/gallery?",
      "/admin/stats?",
      "/results/00000000-0000-4000-8000-000000000000/preset?",
    );
    await fc.assert(
      fc.asyncProperty(
        queries,
        fc.dictionary(
          fc.constantFrom("operation", "before", "limit", "action", "picture", "days"),
          fc.string(),
        ),
        async (path, query) => {
          const answer = await appCall(h, `${path}${new URLSearchParams(query)}`, { initData });
          return answer.status < 500;
        },
      ),
      { numRuns: 80 },
    );
    const raw = await fetch(`${h.config.publicUrl}/app/api/generate`, {
      method: "POST",
      headers: { authorization: `tma ${initData}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(raw.status).toBe(400);
  });
});
