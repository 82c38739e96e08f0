import { parse, validate } from "@tma.js/init-data-node";
import { Bot, GrammyError, InlineKeyboard } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";

/**
 * Mini Apps as Telegram has them: web_app buttons only in a private chat with
 * the bot, the menu button (the bot's default and one per chat), invoice links
 * a Mini App opens and pays, and the launch parameters Telegram's client gives
 * the app (init data signed with the bot token).
 */

let tg: TelegramStandIn;
const bots: Bot[] = [];
const appUrl = "http://127.0.0.1:9/app/";

function newBot(): Bot {
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  bots.push(bot);
  return bot;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error.description;
}

beforeAll(async () => {
  tg = await startTelegramStandIn({ rules: { flood: false } });
});

afterEach(async () => {
  for (const bot of bots.splice(0)) if (bot.isRunning()) await bot.stop();
  tg.setRules({ webAppRequireHttps: false });
  await tg.call("setChatMenuButton", { menu_button: { type: "default" } });
});

afterAll(async () => {
  await tg.close();
});

const gallery = () => new InlineKeyboard().webApp("🖼 Gallery", appUrl);

describe("web_app buttons", () => {
  test("are taken in a private chat with the bot, and refused in groups and inline messages", async () => {
    const { api } = newBot();
    const user = tg.user({ started: true });
    const sent = await api.sendMessage(user.chatId, "your results", { reply_markup: gallery() });
    expect(sent.reply_markup?.inline_keyboard[0]?.[0]).toEqual({
      text: "🖼 Gallery",
      web_app: { url: appUrl },
    });

    const group = tg.group({ members: [user] });
    expect(await refusal(api.sendMessage(group.id, "results", { reply_markup: gallery() }))).toBe(
      "Bad Request: BUTTON_TYPE_INVALID",
    );
    const plain = await api.sendMessage(group.id, "results");
    expect(
      await refusal(api.editMessageReplyMarkup(group.id, plain.message_id, { reply_markup: gallery() })),
    ).toBe("Bad Request: BUTTON_TYPE_INVALID");

    // an inline answer goes into any chat: no Web App button in its results
    const queryId = user.inlineQuery("cats");
    const article = {
      type: "article" as const,
      id: "1",
      title: "cats",
      input_message_content: { message_text: "cats" },
    };
    expect(await refusal(api.answerInlineQuery(queryId, [{ ...article, reply_markup: gallery() }]))).toBe(
      "Bad Request: BUTTON_TYPE_INVALID",
    );
    await api.answerInlineQuery(queryId, [article]);
  });

  test("an https-only Telegram refuses a plain http app; a bad address is refused always", async () => {
    const { api } = newBot();
    const user = tg.user({ started: true });
    const keyboard = (url: string) => ({ reply_markup: new InlineKeyboard().webApp("app", url) });
    expect(await refusal(api.sendMessage(user.chatId, "x", keyboard("javascript:alert(1)")))).toBe(
      "Bad Request: BUTTON_URL_INVALID",
    );
    tg.setRules({ webAppRequireHttps: true });
    expect(await refusal(api.sendMessage(user.chatId, "x", keyboard(appUrl)))).toBe(
      "Bad Request: BUTTON_URL_INVALID",
    );
    await api.sendMessage(user.chatId, "x", keyboard("https://studio.example.com/app/"));
  });
});

describe("the menu button", () => {
  test("the bot's default reaches every private chat; a chat's own wins until reset", async () => {
    const { api } = newBot();
    const alice = tg.user({ started: true, language: "fa" });
    const bob = tg.user({ started: true });
    expect(alice.menuButton()).toEqual({ type: "commands" });
    expect(await api.getChatMenuButton()).toEqual({ type: "commands" });

    const english = { type: "web_app" as const, text: "🖼 Gallery", web_app: { url: appUrl } };
    const persian = { type: "web_app" as const, text: "🖼 گالری", web_app: { url: appUrl } };
    await api.setChatMenuButton({ menu_button: english });
    await api.setChatMenuButton({ chat_id: alice.chatId, menu_button: persian });
    expect(alice.menuButton()).toEqual(persian);
    expect(bob.menuButton()).toEqual(english);
    expect(await api.getChatMenuButton({ chat_id: alice.chatId })).toEqual(persian);
    expect(await api.getChatMenuButton({ chat_id: bob.chatId })).toEqual(english);
    expect(await api.getChatMenuButton()).toEqual(english);

    // a chat's button set back to "default" follows the bot's default again
    await api.setChatMenuButton({ chat_id: alice.chatId, menu_button: { type: "default" } });
    expect(alice.menuButton()).toEqual(english);
    await api.setChatMenuButton({ menu_button: { type: "default" } });
    expect(bob.menuButton()).toEqual({ type: "commands" });
  });

  test("only for a private chat the bot knows, with a text and a good address", async () => {
    const { api } = newBot();
    const member = tg.user({ started: true });
    const group = tg.group({ members: [member] });
    const stranger = tg.user();
    const button = { type: "web_app" as const, text: "app", web_app: { url: appUrl } };
    expect(await refusal(api.setChatMenuButton({ chat_id: group.id, menu_button: button }))).toBe(
      "Bad Request: invalid chat_id specified",
    );
    expect(await refusal(api.setChatMenuButton({ chat_id: stranger.chatId, menu_button: button }))).toBe(
      "Bad Request: chat not found",
    );
    expect(await refusal(api.setChatMenuButton({ menu_button: { ...button, text: "" } }))).toBe(
      "Bad Request: BUTTON_TEXT_INVALID",
    );
    expect(
      await refusal(api.setChatMenuButton({ menu_button: { ...button, web_app: { url: "ftp://x/app" } } })),
    ).toBe("Bad Request: BUTTON_URL_INVALID");
  });
});

describe("invoice links", () => {
  const stars = (amount: number) => [{ label: "credits", amount }];

  test("are checked like invoices: title, description, payload, one price in Stars, at most 10,000", async () => {
    const { api } = newBot();
    const link = (title: string, description: string, payload: string, prices = stars(50)) =>
      refusal(api.createInvoiceLink(title, description, payload, "", "XTR", prices));
    expect(await link("x".repeat(33), "d", "p")).toBe("Bad Request: INVOICE_TITLE_INVALID");
    expect(await link("t", "x".repeat(256), "p")).toBe("Bad Request: INVOICE_DESCRIPTION_INVALID");
    expect(await link("t", "d", "ب".repeat(65))).toBe("Bad Request: INVOICE_PAYLOAD_INVALID");
    expect(await link("t", "d", "p", [...stars(1), ...stars(1)])).toBe("Bad Request: STARS_INVOICE_INVALID");
    expect(await link("t", "d", "p", stars(10_001))).toBe("Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID");
    expect(await link("t", "d", "p", stars(0))).toBe("Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID");
    expect(await refusal(api.createInvoiceLink("t", "d", "p", "provider", "XTR", stars(5)))).toBe(
      "Bad Request: PAYMENT_PROVIDER_INVALID",
    );
    expect(
      await refusal(api.createInvoiceLink("t", "d", "p", "", "XTR", stars(5), { subscription_period: 3600 })),
    ).toBe("Bad Request: SUBSCRIPTION_PERIOD_INVALID");
    expect(await api.createInvoiceLink("t", "d", "p", "", "XTR", stars(10_000))).toMatch(
      /^https:\/\/t\.me\/\$[\w-]+$/,
    );
  });

  test("a link is paid like an invoice, any number of times; the payment lands in the private chat", async () => {
    const bot = newBot();
    const charges: Array<{ chat: number; payload: string; amount: number }> = [];
    let decline = false;
    bot.on("pre_checkout_query", (ctx) =>
      decline
        ? ctx.answerPreCheckoutQuery(false, { error_message: "sold out" })
        : ctx.answerPreCheckoutQuery(true),
    );
    bot.on("message:successful_payment", (ctx) => {
      const paid = ctx.message.successful_payment;
      charges.push({ chat: ctx.chat.id, payload: paid.invoice_payload, amount: paid.total_amount });
    });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const user = tg.user({ started: true });
    const link = await bot.api.createInvoiceLink("100 credits", "Credits", "pack:100", "", "XTR", stars(50));
    expect(user.invoiceLink(link)).toMatchObject({ title: "100 credits", currency: "XTR", total: 50 });

    const first = await user.pay(link);
    const second = await user.pay(link.split("$")[1]!);
    if (!first.ok || !second.ok) throw new Error("a payment failed");
    expect(first.chargeId).not.toBe(second.chargeId);
    decline = true;
    expect(await user.pay(link)).toEqual({ ok: false, reason: "declined", errorMessage: "sold out" });
    await tg.idle();
    expect(charges).toEqual([
      { chat: user.chatId, payload: "pack:100", amount: 50 },
      { chat: user.chatId, payload: "pack:100", amount: 50 },
    ]);
    await expect(user.pay("https://t.me/$nosuchlink")).rejects.toThrow(/not an invoice link/);
  });
});

describe("opening a Mini App", () => {
  test("from the menu button or a web_app button: the app's URL with signed launch parameters", async () => {
    const { api } = newBot();
    const user = tg.user({ started: true, firstName: "Sara", username: "sara_fa", language: "fa" });
    expect(() => user.openWebApp("menu")).toThrow(/opens no Mini App/);
    await api.setChatMenuButton({
      menu_button: { type: "web_app", text: "🖼 Gallery", web_app: { url: appUrl } },
    });
    const fromMenu = user.openWebApp("menu", { theme: "dark" });
    expect(fromMenu.url.startsWith(`${appUrl}#`)).toBe(true);
    const hash = new URLSearchParams(new URL(fromMenu.url).hash.slice(1));
    expect(hash.get("tgWebAppData")).toBe(fromMenu.initData);
    expect(hash.get("tgWebAppVersion")).toBe("8.0");
    expect(hash.get("tgWebAppPlatform")).toBe("web");
    expect(JSON.parse(hash.get("tgWebAppThemeParams") ?? "{}")).toMatchObject({ bg_color: "#212121" });

    // the signature a server checks with the bot token; anything altered fails it
    validate(fromMenu.initData, tg.token, { expiresIn: 60 });
    expect(parse(fromMenu.initData).user).toMatchObject({
      id: user.id,
      first_name: "Sara",
      username: "sara_fa",
      language_code: "fa",
    });
    const forged = fromMenu.initData.replace(
      encodeURIComponent(`"id":${user.id}`),
      encodeURIComponent('"id":1'),
    );
    expect(forged).not.toBe(fromMenu.initData);
    expect(() => validate(forged, tg.token)).toThrow();
    expect(() => validate(fromMenu.initData, "1:another-bot-token")).toThrow();

    await api.sendMessage(user.chatId, "done", {
      reply_markup: new InlineKeyboard().text("Again", "rg").webApp("🖼 Gallery", `${appUrl}#gallery`),
    });
    const fromButton = user.openWebApp("🖼 Gallery");
    expect(fromButton.url).toMatch(/\/app\/#gallery&tgWebAppData=/);
    expect(() => user.openWebApp("Again")).toThrow(/no web_app button/);
  });
});
