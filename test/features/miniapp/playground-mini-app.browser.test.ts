import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { validate } from "@tma.js/init-data-node";
import { Bot, InlineKeyboard } from "grammy";
import { Hono } from "hono";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ensurePage } from "../../../sandbox/playground/bundle";
import { createCast } from "../../../sandbox/playground/cast";
import { createChatFeed } from "../../../sandbox/playground/chat-feed";
import { playgroundRoutes } from "../../../sandbox/playground/routes";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { openChromium } from "../../support/chromium";

/**
 * A tiny Mini App: it shows its launch data, says it is ready, shows
 * Telegram's back button, and opens the invoice link in its address when
 * asked; every event Telegram's client sends it is listed on the page.
 */
const tinyApp = `<!doctype html><meta charset="utf-8"><title>tiny app</title>
<pre id="launch"></pre><button id="buy">Buy</button><ol id="events"></ol>
<script>
  const post = (eventType, eventData) =>
    parent.postMessage(JSON.stringify({ eventType, eventData }), location.origin);
  const launch = new URLSearchParams(location.hash.slice(1));
  document.getElementById("launch").textContent = launch.get("tgWebAppData");
  window.addEventListener("message", (e) => {
    if (e.source !== parent) return;
    const li = document.createElement("li");
    li.textContent = e.data;
    document.getElementById("events").append(li);
  });
  document.getElementById("buy").onclick = () =>
    post("web_app_open_invoice", { slug: new URLSearchParams(location.search).get("invoice") });
  post("web_app_setup_back_button", { is_visible: true });
  post("web_app_ready");
</script>`;

/**
 * The playground page opening a Mini App as Telegram's web client does: from
 * the menu button and from a web_app button, signed launch data in the
 * frame's address, and open_invoice answered by the chat's own payment form
 * and an invoice_closed event. The test plays the bot.
 */
describe("the playground opens Mini Apps", () => {
  let tg: TelegramStandIn;
  let bot: Bot;
  let server: ReturnType<typeof serve>;
  let base: string;
  let browser: Awaited<ReturnType<typeof openChromium>>;
  let page: Page;
  let slug: string;
  /** the first of the cast, whom the page shows first */
  let alex: number;
  const approved: string[] = [];

  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    const cast = createCast(tg);
    alex = cast.members[0]!.user.id;
    await cast.members[0]!.user.send("/start");
    const feed = createChatFeed(tg, () => [...cast.members.map((m) => m.user.chatId), cast.group.id]);
    const built = await ensurePage();
    const app = new Hono();
    app.get("/app/", (c) => c.html(tinyApp));
    base = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    app.route("/playground", playgroundRoutes({ tg, cast, feed, distDir: built.dir, publicUrl: base }));

    bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    bot.on("pre_checkout_query", async (ctx) => {
      approved.push(ctx.preCheckoutQuery.invoice_payload);
      await ctx.answerPreCheckoutQuery(true);
    });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const link = await bot.api.createInvoiceLink("100 credits", "Credits", "pack:100", "", "XTR", [
      { label: "100 credits", amount: 50 },
    ]);
    slug = link.split("$")[1]!;
    await bot.api.setChatMenuButton({
      menu_button: { type: "web_app", text: "🖼 Gallery", web_app: { url: `${base}/app/?invoice=${slug}` } },
    });
    browser = await openChromium();
  }, 120_000);

  // a page per test (vitest shuffles them): none inherits another's open app
  beforeEach(async () => {
    page = await browser.context.newPage();
    await page.goto(`${base}/playground/`);
  });
  afterEach(async () => {
    await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await bot?.stop();
    server?.close();
    await tg?.close();
  });

  const frame = () => page.frameLocator('[data-testid="mini-app-frame"]');
  const events = () => frame().locator("#events li").allTextContents();

  test("the menu button opens the app with init data signed for the user; Buy pays in the chat's form", async () => {
    await page.getByTestId("menu-app").click();
    const panel = page.getByTestId("mini-app");
    await expect.poll(() => panel.getAttribute("data-ready")).toBe("true");
    const initData = (await frame().locator("#launch").textContent()) ?? "";
    validate(initData, tg.token, { expiresIn: 60 });
    expect(new URLSearchParams(initData).get("user")).toContain('"first_name":"Alex"');

    await page.getByTestId("mini-app-back").click();
    await expect.poll(events).toContain(JSON.stringify({ eventType: "back_button_pressed", eventData: {} }));

    // cancelled: nothing paid, and the app is told so
    await frame().locator("#buy").click();
    await page.getByTestId("invoice-form").getByText("⭐️ 50", { exact: true }).waitFor();
    await page.getByTestId("invoice-cancel").click();
    await expect
      .poll(events)
      .toContain(JSON.stringify({ eventType: "invoice_closed", eventData: { slug, status: "cancelled" } }));
    expect(approved).toEqual([]);

    await frame().locator("#buy").click();
    await page.getByTestId("invoice-form").getByRole("button", { name: /^Pay/ }).click();
    await expect
      .poll(events)
      .toContain(JSON.stringify({ eventType: "invoice_closed", eventData: { slug, status: "paid" } }));
    expect(approved).toEqual(["pack:100"]);
    await page.getByTestId("mini-app-close").click();
    // the payment is a message in the private chat, as with an invoice message
    await page.getByTestId("service").filter({ hasText: "You paid ⭐️ 50" }).waitFor();
  });

  test("a web_app button under a message opens its app the same way", async () => {
    await bot.api.sendMessage(alex, "your results", {
      reply_markup: new InlineKeyboard().webApp("🖼 Gallery", `${base}/app/?invoice=${slug}#from-button`),
    });
    await page.getByTestId("webapp-button").last().click();
    await expect.poll(() => page.getByTestId("mini-app").getAttribute("data-ready")).toBe("true");
    expect(await page.getByTestId("mini-app-frame").getAttribute("src")).toMatch(
      /^\/app\/\?invoice=[\w-]+#from-button&tgWebAppData=/,
    );
  });
});
