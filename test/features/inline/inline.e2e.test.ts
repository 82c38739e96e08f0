import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage } from "../../../sandbox/playground/telegram";
import { defaultImageOptions, imageQuote } from "../../../src/domain/generations/image-options";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { generations, inlineOffers } from "../../../src/platform/db/schema";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { askInline, confirmIn, offerOf, placeOffer } from "../../support/inline";
import { byData, hasData, says } from "../../support/messages";

const WELCOME = 100;
const prices = createPrices(loadPriceTable());
const priceOf = (o: Parameters<typeof imageQuote>[1]) => {
  const q = imageQuote(prices, o);
  if (!q.ok) throw new Error("no price");
  return q.credits;
};

describe("inline mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  const generationsOf = (userId: number) =>
    h.db.db.select().from(generations).where(eq(generations.userId, userId));
  const inlineView = (id: string) => {
    const view = h.tg.inlineMessage(id);
    if (!view) throw new Error(`no inline message ${id}`);
    return view;
  };

  async function delivered(userId: number) {
    return eventually(async () => {
      const [g] = await generationsOf(userId);
      return g?.state === "delivered" ? g : undefined;
    });
  }

  test("query → priced offer → placed in a group → Confirm by the placer → progress and the picture in place, charged once", async () => {
    const alice = await startedUser(h);
    const bob = await startedUser(h);
    const group = h.tg.group({ title: "Studio", members: [alice, bob] });
    const price = priceOf({ ...defaultImageOptions(), numImages: 1 });

    const { offer, inlineMessageId } = await placeOffer(alice, "a red fox in the snow", group);
    expect(offer.title).toContain(`${price} credits`);
    expect(offer.input_message_content?.message_text).toContain("a red fox in the snow");
    // inline feedback is on: the placement is recorded before anything is confirmed
    const row = await eventually(async () => {
      const [r] = await h.db.db
        .select()
        .from(inlineOffers)
        .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
      return r;
    });
    expect(row).toMatchObject({ userId: alice.id, price, generationId: null });

    // someone else's tap: told, and nothing changes
    const stranger = confirmIn(bob, inlineMessageId);
    expect((await bob.waitForAnswer(stranger)).text).toMatch(/not yours/);
    expect(inlineView(inlineMessageId).history).toHaveLength(0);
    expect(await generationsOf(alice.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(alice.id)).toMatchObject({ available: WELCOME, held: 0 });

    // the placer taps twice
    const first = confirmIn(alice, inlineMessageId);
    const second = confirmIn(alice, inlineMessageId);
    await alice.waitForAnswer(first);
    await alice.waitForAnswer(second);

    const g = await delivered(alice.id);
    expect(g).toMatchObject({ inlineMessageId, chatId: null, price });
    const shown = await eventually(async () => {
      const view = inlineView(inlineMessageId);
      return view.photo ? view : undefined;
    });
    // progress was shown in place before the picture replaced it
    expect(shown.history.some((m) => m.text?.startsWith("Your request is in the queue"))).toBe(true);
    expect(shown.reply_markup).toBeUndefined();
    expect(shown.photo?.at(-1)?.file_id).toBe(g.fileIds?.[0]);
    expect(shown.caption).toContain(`${price} credits`);
    // the inline message got a file_id, never an upload
    const mediaEdits = h.tg
      .callsOf("editMessageMedia")
      .filter((c) => c.params.inline_message_id === inlineMessageId && c.response.ok);
    expect(mediaEdits.length).toBeGreaterThan(0);
    for (const call of mediaEdits) {
      const media = typeof call.params.media === "string" ? JSON.parse(call.params.media) : call.params.media;
      expect(String((media as { media: string }).media)).not.toMatch(/^attach:\/\//);
    }
    expect(await generationsOf(alice.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(alice.id)).toMatchObject({ available: WELCOME - price, held: 0 });
    const [placedRow] = await h.db.db
      .select()
      .from(inlineOffers)
      .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
    expect(placedRow?.generationId).toBe(g.id);

    // the Confirm button is gone; a press a stale client still sends changes nothing either
    const data = shown.history[0]?.reply_markup?.inline_keyboard.flat().find((b) => "callback_data" in b);
    const late = `late-${inlineMessageId.slice(0, 8)}`;
    h.tg.inject({
      callback_query: {
        id: late,
        from: bob.info,
        inline_message_id: inlineMessageId,
        chat_instance: "stale",
        data: data && "callback_data" in data ? data.callback_data : "",
      },
    });
    await eventually(async () => h.tg.callbackAnswer(late));
    expect(h.tg.callbackAnswer(late)?.text).toMatch(/not yours/);
    expect(inlineView(inlineMessageId).photo?.at(-1)?.file_id).toBe(g.fileIds?.[0]);
    expect(await generationsOf(bob.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(alice.id)).toMatchObject({ available: WELCOME - price, held: 0 });
  });

  test("too few credits: the placed message says so in place, with a way to top up; nothing is held", async () => {
    // wrote to the bot (its private chat is open) but never sent /start: no welcome credits
    const poor = h.tg.user({ language: "en" });
    await poor.send("/help");
    await poor.waitFor((m) => Boolean(m.text));
    const friend = await startedUser(h);
    const group = h.tg.group({ members: [poor, friend] });
    const price = priceOf({ ...defaultImageOptions(), numImages: 1 });
    const { inlineMessageId } = await placeOffer(poor, "a lighthouse at dusk", group);

    await poor.waitForAnswer(confirmIn(poor, inlineMessageId));
    const view = await eventually(async () => {
      const v = inlineView(inlineMessageId);
      return v.text?.includes("enough credits") ? v : undefined;
    });
    // the price, and nothing of the placer's balance: the group reads it (issue 46)
    expect(view.text).toContain(`(${price} credits)`);
    expect(view.text).not.toContain("more are needed");
    const buttons = view.reply_markup?.inline_keyboard.flat() ?? [];
    expect(
      buttons.some((b) => "url" in b && b.url === `https://t.me/${h.tg.botUser.username}?start=topup`),
    ).toBe(true);
    expect(buttons.some((b) => b.text.includes("Confirm"))).toBe(true);
    expect(await generationsOf(poor.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(poor.id)).toMatchObject({ available: 0, held: 0 });
  });

  test("options confirmed for an /image through its panel price the inline offer and shape the request, with one picture", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    /** Presses the button with this callback data on the newest message that has it, then waits for `then`. */
    const tap = async (data: string, then: (m: BotMessage) => boolean) => {
      const before = user.messages().at(-1)?.message_id ?? 0;
      const target = user.messages().filter(hasData(data)).at(-1) ?? (await user.waitFor(hasData(data)));
      await user.press(byData(data), { message: target });
      return user.waitFor(then, { after: Math.min(before, target.message_id) - 1 });
    };
    await user.send("/image a lantern");
    await user.waitFor(hasData("cv:ok"));
    await tap("cv:o:m", says("Choose a model"));
    await tap("cv:p:gamma-5-pro", says("Model: gamma-5-pro"));
    await tap("cv:o:r", says("Choose the resolution"));
    await tap("cv:p:2K", says("Resolution: 2K"));
    await tap("cv:o:a", says("Choose the aspect ratio"));
    await tap("cv:p:16:9", says("Aspect ratio: 16:9"));
    await tap("cv:o:n", says("How many images"));
    // two: what is left of the welcome credits pays for the inline picture after them
    await tap("cv:p:2", says("Number of images: 2"));
    await user.press(byData("cv:ok"), { message: user.messages().filter(hasData("cv:ok")).at(-1)! });
    const first = await delivered(user.id);
    const chosen = { model: "gamma-5-pro", imageSize: "16:9", resolution: "2K" } as const;
    expect(first.params).toMatchObject({ prompt: "a lantern", ...chosen, numImages: 2 });
    const spent = first.charged ?? 0;

    const price = priceOf({ ...chosen, numImages: 1 });
    expect(price).not.toBe(priceOf({ ...defaultImageOptions(), numImages: 1 }));
    const { offer, inlineMessageId } = await placeOffer(user, "a paper boat", group);
    expect(offer.title).toContain(`${price} credits`);
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const g = await eventually(async () => {
      const rows = await generationsOf(user.id);
      return rows.find((r) => r.inlineMessageId === inlineMessageId && r.state === "delivered");
    });
    expect(g.params).toMatchObject({ operation: "image", prompt: "a paper boat", ...chosen, numImages: 1 });
    expect(g.price).toBe(price);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({
      available: WELCOME - spent - price,
      held: 0,
    });
  });

  test("a user who never started the bot: the answer offers Start, Confirm holds nothing and asks for it, and works after /start", async () => {
    const stranger = h.tg.user({ language: "en", firstName: "Nora" });
    const friend = await startedUser(h);
    const group = h.tg.group({ members: [stranger, friend] });
    const bot = h.tg.botUser.username;

    const { answer } = await askInline(stranger, "a kite over the sea");
    expect(answer.button).toEqual({ text: "Start the bot first", start_parameter: "inline" });
    // a user who started the bot gets no such button
    expect((await askInline(friend, "a kite over the sea")).answer.button).toBeUndefined();

    const { inlineMessageId } = await placeOffer(stranger, "a kite over the sea", group);
    await stranger.waitForAnswer(confirmIn(stranger, inlineMessageId));
    const asked = await eventually(async () => {
      const v = inlineView(inlineMessageId);
      return v.text?.includes("press Start") ? v : undefined;
    });
    expect(asked.text).toContain("Nora");
    const buttons = asked.reply_markup?.inline_keyboard.flat() ?? [];
    expect(buttons.some((b) => "url" in b && b.url === `https://t.me/${bot}?start=inline`)).toBe(true);
    expect(buttons.some((b) => b.text.includes("Confirm"))).toBe(true);
    expect(await generationsOf(stranger.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(stranger.id)).toMatchObject({ available: 0, held: 0 });
    // nothing went to a chat the bot may not write to
    expect(h.tg.callsOf("sendPhoto").some((c) => c.params.chat_id === stranger.id)).toBe(false);

    // the Start button opens the private chat with `/start inline`; then the same Confirm works
    await stranger.send("/start inline");
    await stranger.waitFor(says("free credits"));
    await stranger.waitForAnswer(confirmIn(stranger, inlineMessageId));
    const g = await delivered(stranger.id);
    const shown = await eventually(async () => {
      const v = inlineView(inlineMessageId);
      return v.photo ? v : undefined;
    });
    expect(shown.photo?.at(-1)?.file_id).toBe(g.fileIds?.[0]);
    expect(await h.runtime.ledger.account(stranger.id)).toMatchObject({
      available: WELCOME - (g.charged ?? 0),
      held: 0,
    });
  });

  test("/cancel in the private chat cancels a queued inline request and says so in the placed message", async () => {
    // without workers nothing leaves the queue
    await h.runtime.workers?.close();
    try {
      const user = await startedUser(h);
      const group = h.tg.group({ members: [user] });
      const price = priceOf({ ...defaultImageOptions(), numImages: 1 });
      const { inlineMessageId } = await placeOffer(user, "a slow snail", group);
      await user.waitForAnswer(confirmIn(user, inlineMessageId));
      await eventually(async () =>
        inlineView(inlineMessageId).text?.startsWith("Your request is in the queue") ? true : undefined,
      );
      expect(await h.runtime.ledger.account(user.id)).toMatchObject({ held: price });

      const ask = await user.send("/cancel");
      await user.waitFor(says(`its ${price} credits are back`), { after: ask });
      const view = await eventually(async () => {
        const v = inlineView(inlineMessageId);
        return v.text?.includes("Cancelled") ? v : undefined;
      });
      expect(view.text).toBe("✖️ Cancelled. The credits are back on your balance.");
      const [g] = await generationsOf(user.id);
      expect(g).toMatchObject({ state: "cancelled", inlineMessageId });
      expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
    } finally {
      await h.stopRuntime();
      await h.startRuntime();
    }
  });

  test("recent results: a matching query shows them by file_id; an empty query shows help and them", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "An Orange Cat on a roof", group);
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const g = await delivered(user.id);
    const fileId = g.fileIds?.[0];
    expect(fileId).toBeDefined();

    const matching = await askInline(user, "orange CAT");
    expect(matching.answer).toMatchObject({ is_personal: true });
    expect(matching.answer.cache_time).toBeLessThanOrEqual(30);
    expect(matching.results.find((r) => r.type === "photo")?.photo_file_id).toBe(fileId);
    expect(offerOf(matching.results)).toBeDefined();

    const other = await askInline(user, "a zebra");
    expect(other.results.some((r) => r.type === "photo")).toBe(false);

    const empty = await askInline(user, "");
    expect(empty.results[0]).toMatchObject({ type: "article", id: "help" });
    expect(empty.results[0]?.input_message_content?.message_text).toContain(`@${h.tg.botUser.username}`);
    expect(empty.results.find((r) => r.type === "photo")?.photo_file_id).toBe(fileId);
    expect(offerOf(empty.results)).toBeUndefined();

    // a cached result has no keyboard: placed, it gets no inline_message_id
    const photo = empty.results.find((r) => r.type === "photo")!;
    expect(user.chooseInlineResult(empty.id, photo.id, { chat: group }).inlineMessageId).toBeUndefined();
  });

  test("a prompt that cannot be used gets an explanation, not an offer", async () => {
    const user = await startedUser(h);
    const { results } = await askInline(user, "x".repeat(2001));
    expect(offerOf(results)).toBeUndefined();
    expect(results[0]).toMatchObject({ type: "article", id: "problem" });
    expect(results[0]?.input_message_content?.message_text).toMatch(/2000/);
  });

  test("inline feedback off: Confirm is the first the bot hears, and it works from the offer kept in Redis", async () => {
    h.tg.setInlineFeedback(false);
    try {
      const user = await startedUser(h);
      const group = h.tg.group({ members: [user] });
      const price = priceOf({ ...defaultImageOptions(), numImages: 1 });
      const { inlineMessageId } = await placeOffer(user, "a windmill", group);
      await h.tg.idle();
      const before = await h.db.db
        .select()
        .from(inlineOffers)
        .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
      expect(before).toHaveLength(0);

      await user.waitForAnswer(confirmIn(user, inlineMessageId));
      const g = await delivered(user.id);
      expect(g.inlineMessageId).toBe(inlineMessageId);
      expect(inlineView(inlineMessageId).photo?.at(-1)?.file_id).toBe(g.fileIds?.[0]);
      expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME - price, held: 0 });
      const [row] = await h.db.db
        .select()
        .from(inlineOffers)
        .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
      expect(row).toMatchObject({ userId: user.id, price, generationId: g.id });
    } finally {
      h.tg.setInlineFeedback(true);
    }
  });

  test("a result that cannot be uploaded (the bot cannot write to the user) is refunded and explained in place", async () => {
    const user = await startedUser(h);
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "a glass of water", group);
    await user.block({ unnoticed: true });
    await user.waitForAnswer(confirmIn(user, inlineMessageId));
    const view = await eventually(async () => {
      const v = inlineView(inlineMessageId);
      return v.text?.includes("could not show the result here") ? v : undefined;
    });
    expect(view.photo).toBeUndefined();
    const [g] = await generationsOf(user.id);
    expect(g).toMatchObject({ state: "failed" });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
  });
});
