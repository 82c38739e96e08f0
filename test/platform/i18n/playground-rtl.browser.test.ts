import { describe, expect, test } from "vitest";
import { translate } from "../../../src/platform/i18n/i18n";
import { openMiniApp, pageShot, panelShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";

type Box = { word: string; left: number; right: number; top: number };

/** The words in the order a right-to-left reader meets them on screen: line by line, each from its right. */
function readRightToLeft(boxes: readonly Box[]): string[] {
  const lineOf = (b: Box) => Math.round(b.top / 8);
  return [...boxes].sort((a, b) => lineOf(a) - lineOf(b) || b.right - a.right).map((b) => b.word);
}

/**
 * Persian on screen (issue 48): a /balance line and the Mini App's header, in
 * headless Chromium, measured where the words and buttons are drawn.
 */
describe("Persian laid out right to left in Chromium", () => {
  const suite = playgroundSuite("rtl");
  const fa = (key: string, vars?: Record<string, string | number>) => translate("fa", key, vars);

  async function makeImage(chat: ChatPage, prompt: string): Promise<void> {
    await chat.type(`/image ${prompt}`);
    await chat.waitForBot(fa("cv-title-image"));
    const before = await chat.countPhotos();
    await chat.press(new RegExp(`^${fa("cv-btn-confirm-no-price")}`));
    await chat.waitForPhoto(before);
  }

  test("/balance reads برای, the request's kind, then its quoted words, Persian or Latin; the Mini App's back arrow is on the right", async () => {
    const chat = await suite.chatAs("Sara", { greeting: /اعتبار هدیه/, size: { width: 900, height: 900 } });
    await makeImage(chat, "فانوس");
    await makeImage(chat, "a red boat");
    await chat.type("/balance");
    const balance = (await chat.waitForBot(fa("credit-history-title"))).locator(".text").first();

    // from the right: the date in Persian digits, its time, then the sentence in Persian order
    const text = (await balance.textContent()) ?? "";
    for (const words of ["فانوس", "red boat"]) {
      const line = text.split("\n").find((l) => l.includes(words)) ?? "";
      const [, date = "", time = ""] =
        /([۰-۹]{4}-[۰-۹]{2}-[۰-۹]{2})\P{L}*?([۰-۹]{2}:[۰-۹]{2})/u.exec(line) ?? [];
      const sentence = [date, time, "·", "برای", "ساخت", "تصویر", "«", words, "»", "مصرف"];
      const boxes = await chat.wordBoxes(balance, words, sentence);
      expect(readRightToLeft(boxes)).toEqual(sentence);
    }
    // the Latin description itself still reads left to right
    const [red, boat] = await chat.wordBoxes(balance, "red boat", ["red", "boat"]);
    if (Math.abs(red!.top - boat!.top) < 4) expect(red!.right).toBeLessThanOrEqual(boat!.left);
    else expect(red!.top).toBeLessThan(boat!.top);
    // one line per request: each image's movement is its spend, not a reservation too
    expect(text.split("\n").filter((line) => line.includes("فانوس"))).toHaveLength(1);
    expect(text).not.toContain("رزرو برای");
    await pageShot(chat, "balance-persian");

    // the Mini App: Credits opened, so Telegram's back button shows
    const app = await openMiniApp(chat);
    await app.getByTestId("tab-credits").click();
    await expect.poll(() => app.getByTestId("movement").count()).toBeGreaterThan(0);
    expect(await app.locator('[data-testid="movement"][data-label="hold"]').count()).toBe(0);
    const back = chat.page.getByTestId("mini-app-back");
    await back.waitFor();
    expect(await back.textContent()).toBe("→");
    const header = chat.page.locator(".mini-app-header");
    const backBox = (await back.boundingBox())!;
    const closeBox = (await chat.page.getByTestId("mini-app-close").boundingBox())!;
    const strong = header.locator("strong");
    const titleText = (await strong.textContent()) ?? "";
    expect(titleText).toMatch(/[\u0600-\u06FF]/);
    const [title] = await chat.wordBoxes(strong, titleText, [titleText]);
    // right to left: → at the far right, the title starting beside it, ✕ on the far left
    expect(backBox.x).toBeGreaterThanOrEqual(title!.right);
    expect(backBox.x - title!.right).toBeLessThan(40);
    expect(closeBox.x + closeBox.width).toBeLessThanOrEqual(title!.left);
    const headerBox = (await header.boundingBox())!;
    expect(closeBox.x - headerBox.x).toBeLessThan(40);
    expect(headerBox.x + headerBox.width - (backBox.x + backBox.width)).toBeLessThan(40);
    await app.getByTestId("movements").scrollIntoViewIfNeeded();
    await panelShot(chat, "persian-credits");
  });
});
