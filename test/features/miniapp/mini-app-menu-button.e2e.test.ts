import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";

/**
 * The chat's menu button opens the Mini App: the bot's default (English) set
 * at start-up, a Persian speaker's own chat in Persian, and a change of
 * language with /language followed.
 */
describe("the menu button opens the Mini App", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => h?.stop());

  const app = (text: string) => ({ type: "web_app", text, web_app: { url: h.config.miniAppUrl } });

  test("in English by default, in Persian for a Persian speaker, and as /language says", async () => {
    expect(h.config.miniAppUrl).toMatch(/\/app\/$/);
    const english = await startedUser(h, "en");
    const persian = await startedUser(h, "fa");
    await eventually(async () => (persian.menuButton().type === "web_app" ? true : undefined));
    expect(english.menuButton()).toEqual(app("🖼 Gallery"));
    expect(persian.menuButton()).toEqual(app("🖼 گالری"));

    const sent = await english.send("/language");
    const offer = await english.waitFor((m) => Boolean(m.reply_markup), { after: sent });
    await english.press("فارسی", { message: offer });
    const persianNow = () => {
      const button = english.menuButton();
      return button.type === "web_app" && button.text === "🖼 گالری" ? true : undefined;
    };
    await eventually(async () => persianNow());
    expect(english.menuButton()).toEqual(app("🖼 گالری"));
  });
});
