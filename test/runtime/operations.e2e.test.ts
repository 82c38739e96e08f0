import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../sandbox/playground/telegram";
import { createPrices, loadPriceTable } from "../../src/domain/pricing/prices";
import {
  confirmOffer,
  eventually,
  generationIn,
  type Harness,
  startedUser,
  startHarness,
} from "../support/harness";
import { plain } from "../support/messages";

const prices = createPrices(loadPriceTable());
const fixture = (name: string) =>
  readFileSync(new URL(`../../sandbox/simulator/fixtures/${name}`, import.meta.url));

/**
 * Each of the four operations from its command to media received, charged
 * once, with a clean audit: the bot, the Telegram stand-in, the simulator,
 * real Postgres and Redis, on a fast clock.
 */
describe("the four operations end to end", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  async function expectChargedOnce(user: TestUser) {
    const g = await generationIn(h, user.id, "delivered");
    expect(g.charged).toBeGreaterThan(0);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - g.charged!,
      held: 0,
    });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
    return g;
  }

  test("image: /image <prompt> → a photo with the prompt and cost in its caption", async () => {
    const user = await startedUser(h);
    await user.send("/image a red lighthouse at dusk");
    await confirmOffer(user);
    const photo = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await expectChargedOnce(user);
    expect(photo.caption).toContain("a red lighthouse at dusk");
    expect(photo.caption).toContain(String(g.charged));
    expect(g.fileIds?.length).toBe(1);
    // the result's one set of buttons is under the photo
    expect(photo.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual([
      "🔁 Again",
      "✏️ Edit this",
      "⬆️ 4K",
      "🖼 Gallery",
    ]);
    // the status message ends as "done", without buttons, and the database knows it was shown
    const done = await user.waitFor(
      (m) => m.message_id === g.statusMessageId && Boolean(m.text?.startsWith("Done")),
    );
    expect(done.reply_markup).toBeUndefined();
    const shown = await eventually(async () => {
      const row = await h.runtime.generations.get(g.id);
      return row?.statusShown?.startsWith("Done") ? row.statusShown : undefined;
    });
    expect(plain(shown)).toBe(plain(done.text));
  });

  test("edit: a photo with /edit in its caption → the service downloads it through our file proxy", async () => {
    const user = await startedUser(h);
    const getFiles = h.tg.callsOf("getFile").length;
    await user.sendPhoto({ width: 640, height: 480, caption: "/edit make the sky purple" });
    await confirmOffer(user);
    const photo = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    expect(photo.caption).toContain("make the sky purple");
    const g = await expectChargedOnce(user);
    // this generation's own create (its body carries the gid), not another test's edit
    const create = h.sim.requests.find((r) => r.path === "/api/v1/images/edits" && r.body.includes(g.id));
    expect(create).toBeDefined();
    const body = JSON.parse(create?.body ?? "{}") as { image_urls?: string[] };
    expect(body.image_urls).toHaveLength(1);
    expect(body.image_urls?.[0]).toMatch(new RegExp(`^${h.config.publicUrl}/files/[\\w-]+\\.[\\w-]+$`));
    // the proxy fetched the photo from Telegram for the service
    expect(h.tg.callsOf("getFile").length).toBeGreaterThan(getFiles);
  });

  test("video: /video <prompt> → a playable video", async () => {
    const user = await startedUser(h);
    await user.send("/video waves rolling onto a beach");
    await confirmOffer(user);
    const video = await user.waitFor((m) => m.video !== undefined, { timeoutMs: 30_000 });
    expect(video.caption).toContain("waves rolling");
    await expectChargedOnce(user);
  });

  test("dub: a reply to an audio file with /dub de → dubbed audio, charged for the measured minutes", async () => {
    const user = await startedUser(h);
    const audio = await user.sendAudio({
      bytes: fixture("audio.mp3"),
      fileName: "talk.mp3",
      mimeType: "audio/mpeg",
      duration: 3,
    });
    await user.replyTo(audio, "/dub de");
    await confirmOffer(user);
    const dubbed = await user.waitFor((m) => m.audio !== undefined || m.video !== undefined, {
      timeoutMs: 30_000,
    });
    expect(dubbed).toBeDefined();
    const g = await expectChargedOnce(user);
    expect(g.measuredSeconds).toBeGreaterThan(0);
    const expected = prices.dub(g.measuredSeconds!);
    expect(expected.ok && g.charged).toBe(expected.ok ? expected.credits : -1);
  });

  test("the bot token never appears in any request the simulator received", async () => {
    // an edit of its own, so the file proxy's link is among the requests whatever ran before
    const user = await startedUser(h);
    await user.sendPhoto({ width: 320, height: 240, caption: "/edit add a moon" });
    await confirmOffer(user);
    await generationIn(h, user.id, "delivered");
    expect(h.sim.requests.some((r) => r.path === "/api/v1/images/edits")).toBe(true);
    const secretPart = h.tg.token.split(":")[1]!;
    for (const r of h.sim.requests) {
      const seen = JSON.stringify(r);
      expect(seen).not.toContain(secretPart);
      expect(seen).not.toContain("/file/bot");
    }
  });
});
