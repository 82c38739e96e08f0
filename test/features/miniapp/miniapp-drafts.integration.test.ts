import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import type {
  ComposerResponse,
  GenerateResponse,
  RequestStatusResponse,
} from "../../../src/features/miniapp/contract";
import { holds, ledgerEntries } from "../../../src/platform/db/schema";
import { translateFor } from "../../../src/platform/i18n/i18n";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { appClient } from "../../support/miniapp";

const WELCOME = 100;
const picture = { operation: "image", model: "nano-core-2", imageSize: "1:1", numImages: 1 } as const;
const quoted = createPrices(loadPriceTable()).image(picture.model, undefined, 1);
const price = quoted.ok ? quoted.credits : Number.NaN;

/**
 * One draft spends at most once (issue 46): the server issues the composer's
 * drafts, POST /generate makes one generation per draft however often it is
 * called, a draft not issued to the caller is refused, and a new draft is a new,
 * priced request. On the real runtime: its generations, ledger and delivery.
 */
describe("the Mini App's drafts", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  const holdsOf = (userId: number) => h.runtime.db.select().from(holds).where(eq(holds.userId, userId));
  const holdEntriesOf = (userId: number) =>
    h.runtime.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, "hold")));

  test("three presses at once and one later with one draft: one generation, one hold; a new draft spends again", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const composer = await app.get<ComposerResponse>("/composer");
    expect(composer.status).toBe(200);
    const draft = composer.body.draft;
    const press = (prompt: string) =>
      app.post<GenerateResponse>("/generate", {
        draft,
        request: { ...picture, prompt },
        expectedPrice: price,
      });

    const quick = await Promise.all([press("a red kite"), press("a red kite"), press("a red kite")]);
    expect(quick.map((a) => a.status)).toEqual([200, 200, 200]);
    const id = quick[0]!.body.id;
    expect(quick.map((a) => a.body.id)).toEqual([id, id, id]);
    expect(quick.filter((a) => a.body.created)).toHaveLength(1);
    // after "Started", with other words even: still that one request, nothing more held
    const later = await press("a blue kite");
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ id, created: false, price });
    expect(later.body.balance).toEqual({ available: WELCOME - price, held: price });

    // where it is, as the chat's status says it, until done with its result
    const first = await app.get<RequestStatusResponse>(`/generations/${id}`);
    expect(first.status).toBe(200);
    expect(["queued", "generating", "done"]).toContain(first.body.phase);
    const done = await eventually(async () => {
      const s = await app.get<RequestStatusResponse>(`/generations/${id}`);
      return s.body.phase === "done" ? s.body : undefined;
    });
    expect(done).toEqual({
      id,
      phase: "done",
      text: translateFor("en", "gen-done", { cost: price }),
      resultId: id,
      balance: { available: WELCOME - price, held: 0 },
    });
    expect(await h.runtime.generations.recent(user.id, 10)).toHaveLength(1);
    expect(await holdsOf(user.id)).toHaveLength(1);
    expect(await holdEntriesOf(user.id)).toHaveLength(1);
    // the same draft after the result: the same request, charged nothing more
    expect((await press("a red kite")).body).toMatchObject({ id, created: false });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME - price, held: 0 });

    // "Make another": a new draft is a new request, priced and held again
    const another = await app.draft();
    expect(another).not.toBe(draft);
    const second = await app.post<GenerateResponse>("/generate", {
      draft: another,
      request: { ...picture, prompt: "a red kite" },
      expectedPrice: price,
    });
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(true);
    expect(second.body.id).not.toBe(id);
    await eventually(async () =>
      (await h.runtime.generations.get(second.body.id))?.state === "delivered" ? true : undefined,
    );
    expect(await h.runtime.generations.recent(user.id, 10)).toHaveLength(2);
    expect(await holdsOf(user.id)).toHaveLength(2);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: WELCOME - 2 * price,
      held: 0,
    });
  });

  test("a draft not issued to the caller is refused with a 4xx, and nothing is made or held", async () => {
    const user = await startedUser(h);
    const app = appClient(h, user);
    const stranger = appClient(h, await startedUser(h));
    const mine = await app.draft();
    const theirs = await stranger.draft();
    const [nonce, sig] = mine.split(".") as [string, string];
    const flipped = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    const refused = {
      status: 403,
      body: { error: "draft_refused", message: "draft: not issued to this user; ask POST /drafts for one" },
    };
    const forged = [
      theirs,
      `${nonce}.${flipped}`,
      `${theirs.split(".")[0]}.${sig}`,
      `${nonce}.${sig}.x`,
      nonce,
      "x",
      `${"A".repeat(22)}.${"B".repeat(43)}`,
    ];
    for (const draft of forged)
      expect({
        draft,
        ...(await app.post("/generate", { draft, request: { ...picture, prompt: "a cat" } })),
      }).toEqual({ draft, ...refused });
    // a page from before drafts (a key per press): refused until it is reloaded, not spending per press
    const old = await app.post("/generate", {
      key: "press-0000001",
      request: { ...picture, prompt: "a cat" },
    });
    expect(old).toEqual({
      status: 400,
      body: { error: "invalid", message: "draft: a draft from GET /composer or POST /drafts is required" },
    });
    // random drafts and ids never get a 5xx
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.constant(`${nonce}.`), fc.constant(`.${sig}`)),
        async (draft) => {
          const answer = await app.post("/generate", { draft, request: { ...picture, prompt: "a cat" } });
          return answer.status >= 400 && answer.status < 500;
        },
      ),
      { numRuns: 60 },
    );
    expect(await h.runtime.generations.recent(user.id, 5)).toEqual([]);
    expect(await holdsOf(user.id)).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });

    // the stranger's own draft is theirs to spend; their request is unknown to anyone else
    const made = await stranger.post<GenerateResponse>("/generate", {
      draft: theirs,
      request: { ...picture, prompt: "a cat" },
    });
    expect(made.status).toBe(200);
    expect(await app.get(`/generations/${made.body.id}`)).toEqual({
      status: 404,
      body: { error: "not_found" },
    });
    expect(await app.get("/generations/not-an-id")).toEqual({ status: 404, body: { error: "not_found" } });
    expect((await stranger.get(`/generations/${made.body.id}`)).status).toBe(200);
  });
});
