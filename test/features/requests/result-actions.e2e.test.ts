import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestGroup, TestUser } from "../../../sandbox/playground/telegram";
import { upscalePrompt } from "../../../src/domain/generations/params";
import type { Generation } from "../../../src/domain/generations/types";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { userPreferences } from "../../../src/platform/db/schema";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../../support/harness";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

const panel = hasData("cv:ok");
const WELCOME = 100;

/**
 * The buttons under a delivered result: again, edit (every picture of an
 * album), a 4K version priced before anything is spent; only for the requester.
 */
describe("actions on results", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  /** `/image <prompt>`, the count set, Confirm; the delivered generation. */
  async function deliveredImage(user: TestUser, prompt: string, count = 1): Promise<Generation> {
    const request = await user.send(`/image ${prompt}`);
    let summary = await user.waitFor(panel, { after: request });
    if (count > 1) {
      await user.press(byData("cv:o:n"), { message: summary });
      await user.waitFor(hasData(`cv:p:${count}`), { after: request });
      await user.press(byData(`cv:p:${count}`), { message: summary });
      summary = await user.waitFor(says(`Number of images: ${count}`), { after: request });
    }
    await user.press(byData("cv:ok"), { message: summary });
    return generationIn(h, user.id, "delivered");
  }

  const generationsOf = (userId: number) => h.runtime.generations.recent(userId, 20);

  /**
   * The one message with `g`'s buttons, the result itself (or an album's actions
   * message), once its status message says Done without any.
   */
  async function buttonsOf(user: TestUser, g: Generation, options: { in?: TestGroup } = {}) {
    const done = await user.waitFor((m) => m.message_id === g.statusMessageId && says("Done")(m), options);
    expect(buttons(done)).toEqual([]);
    const withButtons = await user.waitFor(hasData(`rg:${g.id}`), options);
    expect(withActions(user, g.id, options)).toEqual([withButtons.message_id]);
    expect(withButtons.message_id).toBeGreaterThan(done.message_id);
    return withButtons;
  }

  /** Every message that carries a button acting on generation `id`. */
  const withActions = (user: TestUser, id: string, options: { in?: TestGroup } = {}) =>
    user
      .messages(options)
      .filter((m) => buttons(m).some((b) => "callback_data" in b && b.callback_data.includes(id)))
      .map((m) => m.message_id);

  test("⬆️ 4K: a priced panel first (nothing held), Confirm edits the result at 4K, charged the shown price once", async () => {
    const user = await startedUser(h);
    const first = await deliveredImage(user, "a lighthouse at dusk");
    // one set of buttons: under the photo, none on its status message
    const photo = await buttonsOf(user, first);
    expect(photo.photo).toBeDefined();
    expect(buttons(photo).find(byData(`up:${first.id}:0`))?.text).toBe("⬆️ 4K");
    const afterFirst = WELCOME - first.price;
    expect(await h.runtime.ledger.account(user.id)).toEqual(
      expect.objectContaining({ available: afterFirst, held: 0 }),
    );

    await user.press(byData(`up:${first.id}:0`), { message: photo });
    const offer = await user.waitFor((m) => panel(m) && says("Resolution: 4K")(m), { after: photo });
    const text = plain(offer.text);
    // the cheapest model making 4K pictures in the default price table, the result's own ratio, one picture
    expect(text).toContain("Model: beta-image-2-5-flare");
    expect(text).toContain("Aspect ratio: 9:16");
    expect(text).toContain("Number of images: 1");
    expect(text).toContain("Pictures: 1");
    // the prompt sent is ours, not a description the user gave: the panel says what is made instead
    expect(text).toContain("Upscale: the same picture, unchanged, in 4K");
    expect(text).not.toContain("Description");
    expect(text).not.toContain(upscalePrompt.slice(0, 30));
    const quote = createPrices(loadPriceTable()).image("beta-image-2-5-flare", "4K", 1);
    const upscalePrice = quote.ok ? quote.credits : Number.NaN;
    expect(text).toContain(`Price: ${upscalePrice} credits`);
    expect(buttons(offer).find(byData("cv:ok"))?.text).toBe(`✅ Confirm · ${upscalePrice} credits`);
    // nothing spent, nothing held, nothing created before Confirm
    expect(await h.runtime.ledger.account(user.id)).toEqual(
      expect.objectContaining({ available: afterFirst, held: 0 }),
    );
    expect(await generationsOf(user.id)).toHaveLength(1);

    await user.press(byData("cv:ok"), { message: offer });
    const upscaled = await eventually(async () => {
      const [g] = await generationsOf(user.id);
      return g && g.id !== first.id && g.state === "delivered" ? g : undefined;
    });
    expect(upscaled.params).toMatchObject({
      operation: "edit",
      model: "beta-image-2-5-flare",
      resolution: "4K",
      imageSize: "9:16",
      numImages: 1,
      prompt: upscalePrompt,
      images: [{ kind: "telegram", fileId: first.fileIds?.[0] }],
    });
    expect(upscaled.price).toBe(upscalePrice);
    expect(upscaled.charged).toBe(upscalePrice);
    const result = await buttonsOf(user, upscaled);
    expect(result.photo).toBeDefined();
    // its caption does not show our prompt either
    expect(plain(result?.caption)).toContain("⬆️ The same picture, in 4K");
    expect(plain(result?.caption)).not.toContain(upscalePrompt.slice(0, 30));
    expect(await h.runtime.ledger.account(user.id)).toEqual(
      expect.objectContaining({ available: afterFirst - upscalePrice, held: 0 }),
    );
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
    // the service was asked at 4K
    const create = h.sim.requests.find(
      (r) => r.path === "/api/v1/images/edits" && r.body.includes(upscaled.id),
    );
    expect(JSON.parse(create?.body ?? "{}")).toMatchObject({ resolution: "4K" });
    // an action on a result is not the user's choice: their remembered edit options are untouched
    const kept = await h.runtime.db
      .select({ operation: userPreferences.operation })
      .from(userPreferences)
      .where(eq(userPreferences.userId, user.id));
    expect(kept.map((r) => r.operation)).toEqual(["image"]);

    // again on the 4K result: the same panel, still without our prompt as a description
    await user.press(byData(`rg:${upscaled.id}`), { message: result });
    const again = await user.waitFor((m) => panel(m) && says("Resolution: 4K")(m), { after: result });
    expect(plain(again.text)).toContain("Upscale: the same picture, unchanged, in 4K");
    expect(plain(again.text)).not.toContain("Description");
    // and /history names it the same way
    const asked = await user.send("/history");
    const history = await user.waitFor(says("Your recent requests"), { after: asked });
    expect(plain(history.text)).toContain("⬆️ The same picture, in 4K");
    expect(plain(history.text)).not.toContain(upscalePrompt.slice(0, 30));
    // the list and every result in a private chat open the Mini App
    const app = { text: "🖼 Gallery", web_app: { url: h.config.miniAppUrl } };
    expect(h.config.miniAppUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/$/);
    expect(buttons(history).at(-1)).toEqual(app);
    expect(buttons(result).at(-1)).toEqual(app);
  });

  test("an album result gets its buttons on a reply to its first picture; edit brings every picture", async () => {
    const user = await startedUser(h);
    const album = await deliveredImage(user, "three foxes", 3);
    expect(album.fileIds).toHaveLength(3);
    expect(album.deliveredMessageIds).toHaveLength(3);
    const pictures = user.messages().filter((m) => album.deliveredMessageIds?.includes(m.message_id));
    expect(pictures.every((m) => m.photo && m.media_group_id && buttons(m).length === 0)).toBe(true);

    const actions = await buttonsOf(user, album);
    expect(plain(actions.text)).toContain("Actions for the pictures above");
    expect(actions.reply_to_message?.message_id).toBe(pictures[0]?.message_id);
    expect(actions.message_id).toBeGreaterThan(pictures.at(-1)?.message_id ?? Number.POSITIVE_INFINITY);
    expect(buttons(actions).map((b) => b.text)).toEqual([
      "🔁 Again",
      "✏️ Edit this",
      "⬆️ 4K #1",
      "⬆️ 4K #2",
      "⬆️ 4K #3",
      "🖼 Gallery",
    ]);

    await user.press(byData(`ed:${album.id}`), { message: actions });
    const ask = await user.waitFor(says("What should change"), { after: actions });
    await user.send("make it snow");
    const summary = await user.waitFor((m) => panel(m) && says("Pictures: 3")(m), { after: ask });
    await user.press(byData("cv:ok"), { message: summary });
    const edit = await eventually(async () => {
      const [g] = await generationsOf(user.id);
      return g && g.id !== album.id ? g : undefined;
    });
    const images = (edit.params as { images: Array<{ fileId: string }> }).images;
    expect(images.map((i) => i.fileId)).toEqual(album.fileIds);

    // a 4K version of the second picture takes that one only
    await user.press(byData(`up:${album.id}:1`), { message: actions });
    const offer = await user.waitFor((m) => panel(m) && says("Resolution: 4K")(m), { after: summary });
    expect(plain(offer.text)).toContain("Pictures: 1");
    await user.press(byData("cv:ok"), { message: offer });
    const upscale = await eventually(async () => {
      const [g] = await generationsOf(user.id);
      return g && g.id !== edit.id && g.id !== album.id ? g : undefined;
    });
    expect((upscale.params as { images: Array<{ fileId: string }> }).images).toEqual([
      expect.objectContaining({ fileId: album.fileIds?.[1] }),
    ]);
    await generationIn(h, user.id, "delivered");
  });

  test("in a group, another member's press on a result is refused with a toast and changes nothing", async () => {
    const alice = await startedUser(h);
    const bob = await startedUser(h);
    const group = h.tg.group({ members: [alice, bob] });
    const request = await alice.sendIn(group, "/image a shared lighthouse");
    const summary = await alice.waitFor(panel, { in: group, after: request });
    await alice.press(byData("cv:ok"), { in: group, message: summary });
    const g = await generationIn(h, alice.id, "delivered");
    const photo = await buttonsOf(alice, g, { in: group });
    expect(photo.photo).toBeDefined();
    // Telegram takes no web_app button in a group: no gallery under a group's result
    expect(buttons(photo).some((b) => "web_app" in b)).toBe(false);
    const held = await h.runtime.ledger.account(bob.id);

    for (const data of [`rg:${g.id}`, `ed:${g.id}`, `up:${g.id}:0`]) {
      const press = await bob.press(byData(data), { in: group, message: photo });
      expect((await bob.waitForAnswer(press)).text).toBe("This is not your request.");
    }
    // no panel was opened for bob, and his balance did not move
    await alice.press(byData(`rg:${g.id}`), { in: group, message: photo });
    const again = await alice.waitFor((m) => panel(m) && says("a shared lighthouse")(m), {
      in: group,
      after: photo,
    });
    const panelsAfter = alice
      .messages({ in: group })
      .filter((m) => m.message_id > photo.message_id && panel(m));
    expect(panelsAfter.map((m) => m.message_id)).toEqual([again.message_id]);
    expect(await h.runtime.ledger.account(bob.id)).toEqual(held);
    expect(await generationsOf(bob.id)).toEqual([]);
  });

  test("video results offer again only, and again opens the panel with the same options and the price", async () => {
    const user = await startedUser(h);
    const request = await user.send("/video waves on a beach");
    const summary = await user.waitFor(panel, { after: request });
    await user.press(byData("cv:ok"), { message: summary });
    const g = await generationIn(h, user.id, "delivered", 40_000);
    const video = await buttonsOf(user, g);
    expect(video.video).toBeDefined();
    expect(buttons(video).map((b) => b.text)).toEqual(["🔁 Again", "🖼 Gallery"]);
    await user.press(byData(`rg:${g.id}`), { message: video });
    const again = await user.waitFor((m) => panel(m) && says("waves on a beach")(m), { after: video });
    expect(plain(again.text)).toContain(`Price: ${g.price} credits`);
    expect(await generationsOf(user.id)).toHaveLength(1);
  });
});
