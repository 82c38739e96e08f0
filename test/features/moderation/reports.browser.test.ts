import { describe, expect, test } from "vitest";
import { translate } from "../../../src/platform/i18n/i18n";
import { openMiniApp, pageShot, panelShot, playgroundSuite } from "../../support/browser-suite";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

/** Issue 52: a result reported in the playground's group reaches Morgan (the bot's admin), who acts on it. */
describe("a report in a group, in Chromium", () => {
  const suite = playgroundSuite("reports");

  test("Alex's picture in the group, Sara's report, Morgan's list and each of his actions", async () => {
    // Morgan started the bot (an admin who never did gets no reports: Telegram lets no bot write first)
    const chat = await suite.chatAs("Morgan", { size: { width: 400, height: 860 } });
    await chat.switchUser("Alex");
    await chat.page.getByRole("button", { name: "🤖 Bot" }).click();
    await chat.type("/start");
    await chat.waitForBot(/Hi Alex/);
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    const prompt = "a moonlit lighthouse on a cliff";
    await chat.type(`/image ${prompt}`);
    await chat.waitForBot(/New image/);
    await chat.press(/Confirm/);
    const picture = chat
      .botMessages()
      .filter({ hasText: prompt })
      .filter({ has: chat.page.locator("img") });
    await expect.poll(() => picture.count(), { timeout: 40_000 }).toBe(1);

    // Sara, a member, reports it
    await chat.switchUser("Sara");
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await picture.getByRole("button", { name: /گزارش|Report/ }).click();
    await expect
      .poll(() => chat.page.getByTestId("toast").allTextContents(), { timeout: 20_000 })
      .toContain(translate("fa", "report-thanks"));

    // Morgan, the bot's admin, sees it in the Mini App's admin tab and in his chat with the bot
    await chat.switchUser("Morgan");
    await chat.page.getByRole("button", { name: "🤖 Bot" }).click();
    const report = await chat.waitForBot(/A result was reported in/);
    expect(await report.textContent()).toContain(prompt);
    await pageShot(chat, "report-reached-admin", "playground", "moderation");
    const app = await openMiniApp(chat);
    await app.getByTestId("tab-admin").click();
    await expect
      .poll(() => app.getByTestId("report").filter({ hasText: prompt }).count(), { timeout: 20_000 })
      .toBe(1);
    await panelShot(chat, "open-reports", "moderation");
    await chat.page.getByTestId("mini-app-close").click();

    // each action, answered in his chat
    await chat.press(/Refund/);
    await chat.waitForBot(/Refunded: \d+ credits went back to the maker/);
    await chat.press(/Remove from the group/);
    await chat.waitForBot(en("report-removed", { count: 1 }));
    await chat.press(/Ban the maker/);
    await chat.waitForBot(/is banned/);
    await chat.press(/Dismiss/);
    await chat.waitForBot(en("report-dismissed"));
    await pageShot(chat, "report-actions", "playground", "moderation");

    // the picture is gone from the group
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await expect.poll(() => picture.count(), { timeout: 10_000 }).toBe(0);
  });
});
