import { describe, expect, test } from "vitest";
import { translate } from "../../../src/platform/i18n/i18n";
import {
  openMiniApp,
  pageShot,
  panelShot,
  playgroundSuite,
  spendMovements,
} from "../../support/browser-suite";

const refusedText = translate("en", "prompt-refused");

/** Issue 52: a pattern the admin adds refuses a prompt in the chat, in an offer and in the Mini App, before any hold. */
describe("refused prompts and the Mini App's Delete my data, in Chromium", () => {
  const suite = playgroundSuite("refused-prompts");

  test("the admin adds dragon*; Alex's /image, plain message and Mini App request are refused, nothing held", async () => {
    const morgan = await suite.chatAs("Morgan");
    await morgan.type("/moderation add dragon*");
    await morgan.waitForBot(translate("en", "moderation-added", { rule: "dragon*" }));

    const chat = await suite.chatAs("Alex", { size: { width: 400, height: 860 } });
    // the chat: /image and Confirm
    await chat.type("/image a dragon over the sea");
    await chat.waitForBot(/New image/);
    await chat.press(/Confirm/);
    await chat.waitForBot(refusedText);
    // an offer to a message sent without a command
    await chat.type("Dragons at dawn");
    await chat.waitForBot(/Shall I make a picture/);
    await chat.press(/Make a picture/);
    await chat.waitForBot(/Description: Dragons at dawn/);
    await chat.press(/Confirm/);
    await expect.poll(() => chat.botMessages().filter({ hasText: refusedText }).count()).toBe(2);
    await pageShot(chat, "refused-in-chat", "playground", "moderation");

    // the Mini App's composer
    const app = await openMiniApp(chat);
    await app.getByTestId("tab-create").click();
    await app.getByTestId("op-image").click();
    await app.getByTestId("prompt").fill("a tiny DRAGON asleep");
    await expect.poll(() => app.getByTestId("confirm").isEnabled()).toBe(true);
    await app.getByTestId("confirm").click();
    await expect.poll(() => app.getByTestId("compose-status").textContent()).toContain(refusedText);
    await panelShot(chat, "refused-in-mini-app", "moderation");

    expect(await spendMovements(app)).toEqual([]);
    // and, at the foot of the Credits tab, "Delete my data": asked once more, then done
    await app.getByTestId("erase").click();
    await app.getByTestId("erase-ask").waitFor();
    await app.getByTestId("erase-confirm").click();
    await expect
      .poll(() => app.getByTestId("erase-status").textContent(), { timeout: 20_000 })
      .toContain("Your data is deleted");
    // nothing was made: no picture in the chat
    expect(
      await chat
        .botMessages()
        .filter({ has: chat.page.locator("img") })
        .count(),
    ).toBe(0);
  });
});
