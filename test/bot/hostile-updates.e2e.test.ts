import { eq } from "drizzle-orm";
import type { Chat, Message, Update, User } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../sandbox/playground/telegram";
import { groupAnonymousBotId } from "../../src/bot/middleware/people-only";
import { generations, processedUpdates, users } from "../../src/platform/db/schema";
import { eventually, type Harness, startedUser, startHarness } from "../support/harness";

/** Updates a hostile user or an odd client can produce, each tried against the running bot. */
describe("odd and hostile updates", () => {
  let h: Harness;
  const logs: string[] = [];
  let queryNo = 0;

  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "info" } });
  });
  afterAll(async () => h?.stop());

  const errorLines = () =>
    logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50).map((l) => l.slice(0, 400));
  const callsFor = (method: string, queryId: string) =>
    h.tg.callsOf(method).filter((c) => c.params.callback_query_id === queryId);
  const notModifiedCalls = () =>
    h.tg.calls.filter((c) => !c.response.ok && /not modified/.test(c.response.description ?? ""));
  /** Every update Telegram handed out is handled to completion (the journal has none pending). */
  const settle = async () => {
    await h.tg.idle();
    await eventually(async () =>
      (await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"))) === 0
        ? true
        : undefined,
    );
  };

  /** A press with any data on a message of the bot, as a modified client could send it. */
  function pressData(user: TestUser, message: Message, data: string): string {
    const id = `hostile-${++queryNo}`;
    h.tg.inject({
      callback_query: {
        id,
        from: { id: user.id, is_bot: false, first_name: "Mallory", language_code: "en" },
        message,
        chat_instance: "hostile",
        data,
      },
    });
    return id;
  }

  async function botMessageWithButton(user: TestUser): Promise<Message> {
    const sent = await h.tg.call("sendMessage", {
      chat_id: user.chatId,
      text: "a message with a button",
      reply_markup: { inline_keyboard: [[{ text: "press", callback_data: "x" }]] },
    });
    if (!sent.ok) throw new Error("could not send");
    return sent.result as Message;
  }

  test("item 2: an anonymous group admin (GroupAnonymousBot) gets no account and is told to write as themselves", async () => {
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member] });
    const chat = { id: group.id, type: "group" as const, title: "Group" };
    const anonymous: User = {
      id: groupAnonymousBotId,
      is_bot: true,
      first_name: "Group",
      username: "GroupAnonymousBot",
    };
    const anonymousMessage = (text: string, messageId: number): Omit<Update, "update_id"> => ({
      message: {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat,
        from: anonymous,
        sender_chat: chat,
        text,
        entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }],
      },
    });
    h.tg.inject(anonymousMessage(`/start@${h.tg.botUser.username}`, 900_001));
    h.tg.inject(anonymousMessage(`/image@${h.tg.botUser.username} a free cat`, 900_002));
    // a channel speaking in a linked group (sender_chat is the channel)
    h.tg.inject({
      message: {
        message_id: 900_003,
        date: Math.floor(Date.now() / 1000),
        chat,
        from: { id: 136817688, is_bot: true, first_name: "Channel", username: "Channel_Bot" },
        sender_chat: { id: -1001234567890, type: "channel", title: "A channel" },
        text: `/start@${h.tg.botUser.username}`,
        entities: [{ type: "bot_command", offset: 0, length: 6 + h.tg.botUser.username!.length + 1 }],
      },
    });
    await settle();
    const answers = group.messages().map((m) => m.text ?? "");
    expect(answers.filter((t) => t.includes("write as yourself"))).toHaveLength(3);
    expect(answers.some((t) => t.includes("credits"))).toBe(false);
    for (const id of [groupAnonymousBotId, 136817688, -1001234567890]) {
      expect(await h.db.db.$count(users, eq(users.id, id))).toBe(0);
      expect(await h.runtime.ledger.account(id)).toMatchObject({ available: 0, held: 0 });
      expect(await h.db.db.$count(generations, eq(generations.userId, id))).toBe(0);
    }
    expect(errorLines()).toEqual([]);
  });

  test("item 2: a bot writing in a group (is_bot, no sender_chat) gets no account and is told to write as itself", async () => {
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member] });
    const bot: User = { id: 6_100_000_001, is_bot: true, first_name: "Other", username: "other_helper_bot" };
    const command = (text: string) => ({
      message: {
        message_id: 910_000 + ++queryNo,
        date: Math.floor(Date.now() / 1000),
        chat: group.chat as Chat.SupergroupChat,
        from: bot,
        text,
        entities: [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]!.length }],
      },
    });
    h.tg.inject(command(`/start@${h.tg.botUser.username}`));
    h.tg.inject(command(`/balance@${h.tg.botUser.username}`));
    await settle();
    const answers = group.messages().map((m) => m.text ?? "");
    expect(answers.filter((t) => t.includes("write as yourself"))).toHaveLength(2);
    expect(answers.some((t) => t.includes("credits"))).toBe(false);
    expect(await h.db.db.$count(users, eq(users.id, bot.id))).toBe(0);
    expect(await h.runtime.ledger.account(bot.id)).toMatchObject({ available: 0, held: 0 });
    expect(errorLines()).toEqual([]);
  });

  test("item 2: a press from GroupAnonymousBot is answered with 'write as yourself' and opens no account", async () => {
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member] });
    const sent = await h.tg.call("sendMessage", {
      chat_id: group.id,
      text: "Choose your language:",
      reply_markup: { inline_keyboard: [[{ text: "English", callback_data: "language:en" }]] },
    });
    if (!sent.ok) throw new Error("could not send");
    const id = `hostile-${++queryNo}`;
    h.tg.inject({
      callback_query: {
        id,
        from: { id: groupAnonymousBotId, is_bot: true, first_name: "Group", username: "GroupAnonymousBot" },
        message: sent.result as Message,
        chat_instance: "hostile",
        data: "language:en",
      },
    });
    await settle();
    const calls = callsFor("answerCallbackQuery", id);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params).toMatchObject({ show_alert: true });
    expect(String(calls[0]!.params.text)).toContain("write as yourself");
    expect(await h.db.db.$count(users, eq(users.id, groupAnonymousBotId))).toBe(0);
    expect(await h.runtime.ledger.account(groupAnonymousBotId)).toMatchObject({ available: 0, held: 0 });
    expect(group.messages().filter((m) => m.text !== "Choose your language:")).toEqual([]);
    expect(errorLines()).toEqual([]);
  });

  test("item 5: malformed callback data is answered once with 'menu no longer active', never reaching SQL", async () => {
    const user = await startedUser(h);
    const message = await botMessageWithButton(user);
    const hyphens = "-".repeat(36);
    const zeros = "0".repeat(36);
    const datas = [
      `rg:${hyphens}`,
      `ed:${zeros}`,
      `hs:${hyphens}`,
      `hs:${zeros}`,
      "language:xx",
      `rg:${"g".repeat(36)}`,
    ];
    const ids = datas.map((data) => pressData(user, message, data));
    await settle();
    for (const id of ids) {
      const calls = callsFor("answerCallbackQuery", id);
      expect(calls, id).toHaveLength(1);
      expect(calls[0]!.params.text).toBe("This menu is no longer active.");
    }
    expect(user.messages().some((m) => m.text?.includes("went wrong"))).toBe(false);
    expect(errorLines()).toEqual([]);
  });

  test("a NUL or a lone surrogate in a message stalls nobody: it is answered, and so is everyone after it", async () => {
    const first = await startedUser(h);
    const second = await startedUser(h);
    // Postgres text and jsonb refuse both: kept as they came, they would stop the journal, and polling with it
    await first.send("hi \u0000 there \uD800");
    await second.send("/balance");
    await second.waitFor((m) => Boolean(m.text?.includes("credits")));
    await first.send("/image a harbour\u0000 at dusk");
    const panel = await first.waitFor((m) =>
      Boolean(m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅"))),
    );
    expect(panel.text).toContain("a harbour\uFFFD at dusk");
    await settle();
    expect(errorLines()).toEqual([]);
  });

  test("item 6: a prompt of zero-width characters opens no chargeable panel", async () => {
    const user = await startedUser(h);
    await user.send("/image \u200B\u200B\u200B");
    await user.waitFor((m) => m.text === "The description is empty. Please write what you want.");
    await settle();
    const confirm = user
      .messages()
      .some((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")));
    expect(confirm).toBe(false);
    for (const prompt of ["\u200B\u200C\u200D\u2060\uFEFF", "\u3164\u2800 \u00A0", "\u202E\u200E\u0301"]) {
      await user.send(prompt);
    }
    await settle();
    expect(
      user.messages().filter((m) => m.text === "The description is empty. Please write what you want."),
    ).toHaveLength(4);
    expect(
      user.messages().some((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅"))),
    ).toBe(false);
  });

  test("item 7: presses on a menu whose buttons are gone cause no 'not modified' edit and no second answer", async () => {
    const user = await startedUser(h);
    await user.send("/image a red kite");
    const panel: BotMessage = await user.waitFor((m) =>
      Boolean(m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅"))),
    );
    await user.send("/cancel");
    await user.waitFor((m) => m.text === "Cancelled. Nothing was charged.");
    await settle();
    const before = notModifiedCalls().length;
    // two taps on the menu as the client still shows it (with its buttons)
    const { history: _history, deleted: _deleted, keyboard: _keyboard, ...snapshot } = panel;
    const first = pressData(user, snapshot as Message, "cv:ok");
    const second = pressData(user, snapshot as Message, "cv:ok");
    await settle();
    for (const id of [first, second]) expect(callsFor("answerCallbackQuery", id)).toHaveLength(1);
    expect(notModifiedCalls().length - before).toBe(0);
  });

  test("item 9: an update type the bot does not ask for (a channel post with a command) is ignored", async () => {
    const update = {
      update_id: 990_000_001,
      channel_post: {
        message_id: 5,
        date: Math.floor(Date.now() / 1000),
        chat: { id: -1009876543210, type: "channel" as const, title: "News" },
        sender_chat: { id: -1009876543210, type: "channel" as const, title: "News" },
        text: "/image a lighthouse",
        entities: [{ type: "bot_command" as const, offset: 0, length: 6 }],
      },
    };
    const callsBefore = h.tg.calls.length;
    await h.runtime.bot!.handleUpdate(update);
    expect(h.tg.calls.slice(callsBefore).filter((c) => c.params.chat_id === -1009876543210)).toEqual([]);
    const [row] = await h.db.db
      .select()
      .from(processedUpdates)
      .where(eq(processedUpdates.updateId, update.update_id));
    // dropped before the journal: nothing recorded, nothing left for the recovery
    expect(row).toBeUndefined();
    expect(errorLines()).toEqual([]);
  });
});
