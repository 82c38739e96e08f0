import { Bot } from "grammy";
import type { Chat, Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import { withDetectedEntities } from "../../sandbox/playground/telegram/formatting";
import { commandMenus, type MenuSource } from "../../src/bot/commands";
import type { BotContext } from "../../src/bot/context";
import { helpFeature } from "../../src/bot/features/help";
import { createPrices } from "../../src/domain/pricing/prices";
import { inlineHelp } from "../../src/features/inline/help";
import { requestsHelp } from "../../src/features/requests/help";
import { i18n, translate } from "../../src/platform/i18n/i18n";
import { menuCommands } from "../../src/runtime/features";
import { testBotInfo } from "../support/bot-info";

const adminId = 500;
const source: MenuSource = { extra: menuCommands, adminIds: [adminId], miniAppUrl: "https://app.example/" };
/** A price table unlike the default one: /help must show these numbers, not numbers of its own. */
const prices = createPrices({
  image: { "nano-lite": { default: 7 }, "gamma-5-pro": { "1K": 9, "4K": 19 } },
  video: { "video-b-2-mini": { "480p": 3, "720p": 11 } },
  dub: { perMinute: 13 },
});
const dubRules = { maxSeconds: 45 * 60, uploadMaxBytes: 20 * 1024 * 1024, sourceMaxBytes: 600_000_000 };

/** What the bot answers to /help from this person in this chat. */
async function help(
  from: { id: number; language?: string },
  chat?: Chat.PrivateChat | Chat.SupergroupChat,
): Promise<string> {
  const bot = new Bot<BotContext>("1:test", { botInfo: testBotInfo });
  const sent: string[] = [];
  bot.api.config.use(async (_prev, method, payload) => {
    if (method === "sendMessage") sent.push(String((payload as { text: string }).text));
    return { ok: true, result: { message_id: 1, date: 0, chat: { id: 1, type: "private" } } } as never;
  });
  bot.use(i18n);
  bot.use(helpFeature(source, [requestsHelp({ prices, dubRules }), inlineHelp]));
  const user = { id: from.id, is_bot: false, first_name: "P", language_code: from.language ?? "en" };
  const update: Update = {
    update_id: 1,
    message: {
      message_id: 1,
      date: 0,
      chat: chat ?? { id: from.id, type: "private", first_name: "P" },
      from: user,
      text: "/help",
      entities: [{ type: "bot_command", offset: 0, length: 5 }],
    },
  };
  await bot.handleUpdate(update);
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

/** The menu Telegram shows in that scope and language, as the bot sets it. */
function menu(scope: string, language?: string, chatId?: number) {
  const { scopes } = commandMenus(source.extra, chatId ? [chatId] : []).toArgs();
  return scopes.find(
    (c) =>
      c.scope?.type === scope &&
      c.language_code === language &&
      (chatId === undefined || (c.scope?.type === "chat" && c.scope.chat_id === chatId)),
  )!.commands;
}

const commandLines = (text: string) =>
  text.split("\n").filter((line) => /^\u2068?\/[a-z_]+\u2069? — /.test(line));
const group: Chat.SupergroupChat = { id: -100, type: "supergroup", title: "Studio" };

describe("/help is the chat's own menu, tappable, with limits, prices, inline mode and the Gallery", () => {
  test("a private chat: every command of its ☰ menu, in its order, with the menu's words", async () => {
    const text = await help({ id: 1 });
    expect(text.startsWith(translate("en", "help"))).toBe(true);
    expect(commandLines(text)).toEqual(
      menu("all_private_chats").map((c) => `/${c.command} — ${c.description}`),
    );
    for (const command of ["buy", "settings", "invite", "terms", "paysupport", "history", "language"])
      expect(text).toContain(`/${command} — `);
    expect(text).not.toContain("/grant");
  });

  test("each command is a /command Telegram makes tappable", async () => {
    for (const language of ["en", "fa"]) {
      const text = await help({ id: 1, language });
      const found = withDetectedEntities({ text, entities: [] }).entities.map((e) =>
        text.slice(e.offset, e.offset + e.length),
      );
      for (const c of menu("all_private_chats", language === "en" ? undefined : language))
        expect(found).toContain(`/${c.command}`);
    }
  });

  test("the limits and price ranges are the price table's and the rules', not numbers of its own", async () => {
    const text = await help({ id: 1 });
    expect(text).toContain("Pictures: 7–19 credits each, up to 4 per request; an edit takes up to 3 photos");
    expect(text).toContain("Videos: 3–11 credits per second, 2–30 seconds long");
    expect(text).toContain(
      "Dubbing: 13 credits per started minute, files up to 45 minutes (uploads up to 20 MB, links up to 600 MB)",
    );
    expect(text).toContain("Descriptions: up to 2,000 characters");
  });

  test("inline mode, with the bot's @username, and the Gallery (the menu button's own label) in a private chat", async () => {
    const text = await help({ id: 1 });
    expect(text).toContain(`Inline mode: in any chat, type @${testBotInfo.username} and a description`);
    expect(text).toContain(`${translate("en", "btn-gallery")}: the button beside the message field`);
  });

  test("a bot admin's private menu has the admin commands, and so has their /help", async () => {
    const text = await help({ id: adminId });
    expect(commandLines(text)).toEqual(
      menu("chat", undefined, adminId).map((c) => `/${c.command} — ${c.description}`),
    );
    expect(text).toContain("/grant — ");
  });

  test("a group: the group's menu, what only its admins see apart, no Gallery", async () => {
    const text = await help({ id: 1 }, group);
    const groupMenu = menu("all_group_chats");
    const adminsOnly = menu("all_chat_administrators").filter(
      (c) => !groupMenu.some((g) => g.command === c.command),
    );
    expect(adminsOnly.map((c) => c.command)).toEqual(["groupsettings"]);
    expect(commandLines(text)).toEqual(
      [...groupMenu, ...adminsOnly].map((c) => `/${c.command} — ${c.description}`),
    );
    expect(text).toContain(`${translate("en", "help-group-admins")}\n/groupsettings — `);
    expect(text).not.toContain("/start");
    expect(text).not.toContain(translate("en", "btn-gallery"));
    expect(text).toContain("Inline mode");
  });

  test("in Persian: the Persian menu, each command isolated so right-to-left text draws it /settings", async () => {
    const text = await help({ id: 1, language: "fa" });
    expect(text.startsWith(translate("fa", "help"))).toBe(true);
    expect(commandLines(text)).toEqual(
      menu("all_private_chats", "fa").map((c) => `\u2068/${c.command}\u2069 — ${c.description}`),
    );
    expect(text).toContain(translate("fa", "btn-gallery"));
    expect(text).toContain("۱۳");
  });
});
