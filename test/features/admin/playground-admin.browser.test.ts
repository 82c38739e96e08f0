import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrameLocator } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { openMiniApp, pageShot, panelShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";
import { speechLike } from "../../support/media-files";

const shot = (chat: ChatPage, name: string, folder = "playground") =>
  pageShot(chat, name, folder, "playground");

/**
 * The admin's tools and the playground's own drawing, in Chromium: /grant by
 * @username and the recipient's notice, long messages split as Telegram's
 * clients split them, whose side a group message is drawn on, where an inline
 * result appears, the language picker's buttons, and the admin's charts.
 */
describe("the playground: admin commands and how chats are drawn", () => {
  const suite = playgroundSuite("playground-admin");
  const openAs = (name: string) => suite.chatAs(name, { size: { width: 400, height: 860 } });

  /** The margin chart as the admin saw it before anyone made a request (the tests run in a shuffled order). */
  let beforeAnyRequest: { empty: string | null; text: string | null; drawings: number };

  beforeAll(async () => {
    const chat = await openAs("Morgan");
    const margin = (await adminPage(chat)).getByTestId("chart-margin");
    beforeAnyRequest = {
      empty: await margin.getAttribute("data-empty"),
      text: (await margin.getByTestId("chart-empty").allTextContents())[0] ?? null,
      drawings: await margin.locator("svg").count(),
    };
    await margin.scrollIntoViewIfNeeded();
    await appShot(chat, "admin-no-data");
    await suite.closePages();
  }, 120_000);

  /** Opens the Mini App from the menu button, on its admin page. */
  async function adminPage(chat: ChatPage): Promise<FrameLocator> {
    const app = await openMiniApp(chat);
    await app.getByTestId("tab-admin").click();
    await app.getByTestId("chart-margin").waitFor();
    return app;
  }

  const appShot = (chat: ChatPage, name: string) => panelShot(chat, name);

  test("the margin chart: 'no data yet' before any request, then round axes with 0 and named days", async () => {
    expect(beforeAnyRequest).toEqual({ empty: "true", text: "No data yet in these days.", drawings: 0 });
    const chat = await openAs("Morgan");
    await chat.type("/image a red kite over the dunes");
    await chat.waitForBot("🖼 New image");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);
    const app = await adminPage(chat);
    const drawn = app.getByTestId("chart-margin");
    await drawn.locator("svg").waitFor();
    const ticks: number[] = [];
    for (const tick of await drawn.getByTestId("y-tick").all())
      ticks.push(Number(await tick.getAttribute("data-value")));
    expect(ticks).toContain(0);
    // the axis ends at a round number: 1, 2 or 5 × 10ⁿ
    for (const tick of ticks.filter((v) => v !== 0))
      expect(String(Math.abs(tick)), `tick ${tick}`).toMatch(/^[125]0*$/);
    const days = await drawn.getByTestId("x-tick").allTextContents();
    expect(days).toHaveLength(3);
    for (const day of days) expect(day).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    // the request's day is drawn: a bar, or the zero line alone when the margin came to 0
    if (ticks.length > 1) expect(await drawn.locator("rect").count()).toBeGreaterThan(0);
    await drawn.scrollIntoViewIfNeeded();
    await appShot(chat, "admin-margin");
  }, 90_000);

  test("/grant @username 100 by the admin: a look-alike name is answered with the username, and the recipient is told", async () => {
    const alex = await openAs("Alex");
    // the playground shows whom it acts as: their @username and id
    const whoami = (await alex.page.getByTestId("whoami").textContent()) ?? "";
    const [, username, id] = /^@(\w+) · id (\d+)$/.exec(whoami) ?? [];
    expect(username).toBe("alex_example");
    expect(Number(id)).toBeGreaterThan(0);

    const admin = await openAs("Morgan");
    await admin.type("/grant @alex 100");
    const hint = await admin.waitForBot("I do not know a user @alex");
    await expect(hint.textContent()).resolves.toContain(`@alex_example · ${id} · Alex`);
    await admin.type(`/grant @${username} 100`);
    await admin.waitForBot(`Give 100 credits to ${id} (@alex_example)?`);
    await admin.press(/^✅ Confirm$/);
    await admin.waitForBot(/✅ Gave 100 credits to .*\s+They were told\./s);
    await shot(admin, "grant");

    const notice = await alex.waitForBot(
      /An admin added 100 credits to your balance\. You now have \d+ credits\./,
    );
    expect(notice).toBeTruthy();
    await shot(alex, "grant-received");
  });

  test("/promo create by the admin gives a start link; tapped, it redeems the code once; another user redeems it by /redeem", async () => {
    const admin = await openAs("Morgan");
    await admin.type("/promo create PLAYPROMO 25 5");
    const created = await admin.waitForBot("Promo code PLAYPROMO created");
    const link = created.getByTestId("start-link");
    await expect(link.getAttribute("href")).resolves.toMatch(/^https:\/\/t\.me\/\w+\?start=promo-PLAYPROMO$/);
    await link.click();
    // the tap sends /start with the link's payload, as Telegram's clients do
    await expect
      .poll(() => admin.page.locator('[data-testid="message"][data-side="out"]').last().textContent())
      .toContain("/start promo-PLAYPROMO");
    await admin.waitForBot(/Promo code PLAYPROMO redeemed: \+25 credits\./);
    await shot(admin, "promo-link");
    await link.click();
    await admin.waitForBot("You have already redeemed PLAYPROMO");

    const alex = await openAs("Alex");
    await alex.type("/redeem playpromo");
    await alex.waitForBot(/Promo code PLAYPROMO redeemed: \+25 credits\./);
    await admin.type("/promo list");
    await admin.waitForBot("PLAYPROMO: 25 credits each · redeemed 2 of 5 · 50 credits given · running");
  });

  test("a 5,000-character message is sent as two messages within Telegram's limit, with no error banner", async () => {
    const chat = await openAs("Alex");
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    const words = Array.from({ length: 1000 }, (_, i) => `word${i % 10}`);
    const text = words.join(" ").slice(0, 5000);
    expect(text).toHaveLength(5000);
    // the group is shared with the other tests: an inline result placed there by one of them
    // may still be arriving, so only the parts of this message are counted
    const mine = chat.page
      .locator('[data-testid="message"][data-side="out"]')
      .filter({ hasText: "word0 word1" });
    const before = await mine.count();
    await chat.type(text);
    await expect.poll(() => mine.count()).toBe(before + 2);
    const parts = (await mine.locator(".text").allTextContents()).slice(-2);
    expect(parts.map((p) => p.length <= 4096)).toEqual([true, true]);
    // cut between two words, nothing lost
    expect(parts.join(" ")).toBe(text);
    expect(await chat.page.getByTestId("error").count()).toBe(0);
    await expect.poll(() => chat.page.getByTestId("composer").inputValue()).toBe("");
    await shot(chat, "long-message");
  });

  test("viewing as Morgan, Alex's group message is on the left under his name; Morgan's own is on the right", async () => {
    const chat = await openAs("Alex");
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await chat.type("hello from Alex");
    await chat.switchUser("Morgan");
    await chat.type("and hello from Morgan");
    const alexSays = chat.page.getByTestId("message").filter({ hasText: "hello from Alex" }).last();
    const morganSays = chat.page.getByTestId("message").filter({ hasText: "and hello from Morgan" }).last();
    await morganSays.waitFor();
    await expect(alexSays.getAttribute("data-side")).resolves.toBe("in");
    await expect(alexSays.locator(".sender").textContent()).resolves.toBe("Alex");
    await expect(morganSays.getAttribute("data-side")).resolves.toBe("out");
    expect(await morganSays.locator(".sender").count()).toBe(0);
    const list = (await chat.page.getByTestId("messages").boundingBox())!;
    const left = (await alexSays.boundingBox())!;
    const right = (await morganSays.boundingBox())!;
    expect(left.x - list.x).toBeLessThan(20);
    expect(list.x + list.width - (right.x + right.width)).toBeLessThan(30);
    await shot(chat, "group-sides");
  });

  test("an inline result placed in the group shows only there, not also in the private chat", async () => {
    const chat = await openAs("Alex");
    const privatePhotos = () => chat.page.locator('[data-testid="message"] img[data-testid="photo"]').count();
    const before = await privatePhotos();
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    const message = await chat.placeInline("a cat on a green sofa");
    await message.getByRole("button", { name: /Confirm/ }).click();
    await message.locator('img[data-testid="photo"]').waitFor({ timeout: 40_000 });
    await chat.page.getByRole("button", { name: "🤖 Bot" }).click();
    await chat.page.getByTestId("messages").getByText("/start").last().waitFor();
    await expect.poll(privatePhotos, { timeout: 10_000 }).toBe(before);
    await shot(chat, "inline-private-chat");
  }, 60_000);

  test("the dub language picker: every button does something; the page is in the title", async () => {
    const chat = await openAs("Alex");
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    const talk = join(await mkdtemp(join(tmpdir(), "msb-playground-picker-")), "talk.mp3");
    await speechLike(talk, 5);
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: await readFile(talk) }]);
    await chat.waitForBot(/Length: /);
    await chat.press(/^🗣/);
    const picker = await chat.waitForBot("Dub into which language? (page 1 of 3)");
    const labels = async () => picker.locator(".inline-keyboard .key").allTextContents();
    const first = await labels();
    expect(first.filter((l) => l.trim() === "·" || /^\d+\/\d+$/.test(l.trim()))).toEqual([]);
    expect(first).toContain("▶️");
    expect(first).not.toContain("◀️");
    await shot(chat, "dub-language-pages");
    await chat.press(/^▶️$/);
    const second = await chat.waitForBot("Dub into which language? (page 2 of 3)");
    expect(await second.locator(".inline-keyboard .key").allTextContents()).toEqual(
      expect.arrayContaining(["◀️", "▶️"]),
    );
  });
});
