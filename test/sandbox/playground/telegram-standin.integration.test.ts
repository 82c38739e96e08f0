import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import fc from "fast-check";
import { Bot, GrammyError, InlineKeyboard, InputFile, InputMediaBuilder, webhookCallback } from "grammy";
import type { InputMediaPhoto, Message } from "grammy/types";
import { Hono } from "hono";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { parseFormatted } from "../../../sandbox/playground/telegram/formatting";
import { solidPng } from "../../../sandbox/playground/telegram/images";

let tg: TelegramStandIn;
const bots: Bot[] = [];

function newBot(): Bot {
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  bots.push(bot);
  return bot;
}

async function rejection(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  tg = await startTelegramStandIn({ rules: { flood: false } });
});

afterEach(async () => {
  for (const bot of bots.splice(0)) if (bot.isRunning()) await bot.stop();
  tg.setRules({ flood: false });
  await tg.call("deleteWebhook", { drop_pending_updates: true });
});

afterAll(async () => {
  await tg.close();
});

describe("the Bot API envelope", () => {
  test("getMe answers the bot; a wrong token is 401; an unknown method is 404", async () => {
    const me = await newBot().api.getMe();
    expect(me).toMatchObject({ is_bot: true, id: Number(tg.token.split(":")[0]) });

    const wrong = await fetch(`${tg.apiRoot}/bot123:wrong/getMe`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });

    const unknown = await fetch(`${tg.apiRoot}/bot${tg.token}/getEverything`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ ok: false, error_code: 404, description: "Not Found" });
  });

  test("a bot cannot write to a user who never started it, nor to an unknown chat", async () => {
    const api = newBot().api;
    const user = tg.user();
    expect((await rejection(api.sendMessage(user.chatId, "hi"))).description).toBe(
      "Forbidden: bot can't initiate conversation with a user",
    );
    expect((await rejection(api.sendMessage(42, "hi"))).description).toBe("Bad Request: chat not found");
  });
});

describe("what a test can do to the stand-in", () => {
  test("hold keeps every call of a method waiting until release, serving other methods meanwhile, then serves them all", async () => {
    const api = newBot().api;
    const user = tg.user({ started: true });
    const gate = tg.hold("sendMessage");
    const sends = [api.sendMessage(user.chatId, "first"), api.sendMessage(user.chatId, "second")];
    await expect.poll(() => gate.held()).toBe(2);
    // another method is not held, and nothing held reached the chat
    expect((await api.getMe()).is_bot).toBe(true);
    expect(user.messages()).toEqual([]);
    gate.release();
    const sent = await Promise.all(sends);
    expect(gate.held()).toBe(0);
    expect(sent.map((m) => m.text)).toEqual(["first", "second"]);
    expect(
      user
        .messages()
        .map((m) => m.text)
        .sort(),
    ).toEqual(["first", "second"]);
    // released for good: the next call goes straight through
    expect((await api.sendMessage(user.chatId, "third")).text).toBe("third");
  });
});

describe("updates", () => {
  test("getUpdates hands an update out until a later offset confirms it", async () => {
    const api = newBot().api;
    const user = tg.user({ language: "en" });
    const sent = await user.send("/start");

    const first = await api.getUpdates({ timeout: 0 });
    expect(first).toHaveLength(1);
    expect(first[0]!.message).toMatchObject({ text: "/start", message_id: sent.message_id });
    expect(first[0]!.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);

    const again = await api.getUpdates({ timeout: 0 });
    expect(again.map((u) => u.update_id)).toEqual([first[0]!.update_id]);

    const after = await api.getUpdates({ offset: first[0]!.update_id + 1, timeout: 0 });
    expect(after).toEqual([]);
    await tg.idle();
  });

  test("a long poll returns as soon as an update arrives", async () => {
    const api = newBot().api;
    const user = tg.user();
    const poll = api.getUpdates({ timeout: 30 });
    await new Promise((r) => setTimeout(r, 20));
    await user.send("hello");
    const updates = await poll;
    expect(updates.map((u) => u.message?.text)).toEqual(["hello"]);
    await api.getUpdates({ offset: updates[0]!.update_id + 1, timeout: 0 });
  });

  test("a polling bot answers a user", async () => {
    const bot = newBot();
    bot.command("start", (ctx) => ctx.reply(`Welcome, ${ctx.from?.first_name}`));
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const user = tg.user({ firstName: "Sara", language: "fa" });
    await user.send("/start");
    const welcome = await user.waitFor((m) => m.text?.startsWith("Welcome"));
    expect(welcome.text).toBe("Welcome, Sara");
    expect(tg.transcript(user.chatId)).toContain('"Welcome, Sara"');
  });

  test("webhook delivery carries the secret header, retries after an error, and blocks getUpdates", async () => {
    const bot = newBot();
    await bot.init();
    bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    const secret = "s3cr3t_Token-1";
    let refuseFirst = true;
    const app = new Hono();
    const handle = webhookCallback(bot, "hono", { secretToken: secret });
    app.post("/hook", (c) => {
      if (refuseFirst) {
        refuseFirst = false;
        return c.text("busy", 503);
      }
      return handle(c);
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const port = (server.address() as AddressInfo).port;
      tg.setRules({ webhook: { retryDelayMs: 10 } });
      await bot.api.setWebhook(`http://127.0.0.1:${port}/hook`, { secret_token: secret });
      expect(tg.mode).toBe("webhook");
      const conflict = await rejection(bot.api.getUpdates({ timeout: 0 }));
      expect(conflict.error_code).toBe(409);

      // the stand-in is shared by this file's tests: only this test's deliveries count
      const earlier = tg.deliveries.length;
      const user = tg.user();
      await user.send("ping");
      expect((await user.waitFor((m) => m.text === "echo: ping")).text).toBe("echo: ping");
      await tg.idle();
      expect(tg.deliveries.slice(earlier).map((d) => d.status)).toEqual([503, 200]);
      expect(tg.webhookInfo().pending_update_count).toBe(0);

      // a wrong secret is refused by the bot (401), so Telegram keeps retrying
      await bot.api.setWebhook(`http://127.0.0.1:${port}/hook`, { secret_token: "another" });
      await user.send("again");
      const refused = () => tg.deliveries.slice(earlier).some((d) => d.status === 401);
      for (let waited = 0; !refused() && waited < 5000; waited += 10) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(refused()).toBe(true);
      expect(tg.webhookInfo()).toMatchObject({ pending_update_count: 1 });
      expect(tg.webhookInfo().last_error_message).toContain("401");
    } finally {
      await bot.api.deleteWebhook({ drop_pending_updates: true });
      tg.setRules({ webhook: { retryDelayMs: 500 } });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("webhook answers", () => {
  test("a method call in the webhook's answer is executed", async () => {
    const app = new Hono();
    app.post("/hook", async (c) => {
      const update = (await c.req.json()) as { message?: { chat: { id: number }; text?: string } };
      return c.json({
        method: "sendMessage",
        chat_id: update.message?.chat.id,
        text: `got ${update.message?.text}`,
      });
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const port = (server.address() as AddressInfo).port;
      await newBot().api.setWebhook(`http://127.0.0.1:${port}/hook`);
      const user = tg.user();
      await user.send("hi");
      expect((await user.waitFor((m) => m.text === "got hi")).text).toBe("got hi");
    } finally {
      await tg.call("deleteWebhook", {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("files", () => {
  test("a photo the bot uploads can be fetched back by file_id", async () => {
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    const png = solidPng(640, 480);
    const sent = await api.sendPhoto(user.chatId, new InputFile(png, "out.png"), {
      caption: "<b>done</b>",
      parse_mode: "HTML",
    });
    const largest = sent.photo.at(-1)!;
    expect(largest).toMatchObject({ width: 640, height: 480, file_size: png.length });
    expect(sent.caption).toBe("done");
    expect(sent.caption_entities).toEqual([{ type: "bold", offset: 0, length: 4 }]);

    const file = await api.getFile(largest.file_id);
    const download = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
    expect(tg.fileBytes(largest.file_id).equals(png)).toBe(true);

    // this test's upload, whatever other tests of the file sent before it
    const call = tg.callsOf("sendPhoto").find((c) => c.params.chat_id === user.chatId)!;
    expect(call.params).toMatchObject({ chat_id: user.chatId, photo: { name: "out.png", size: png.length } });

    const again = await api.sendPhoto(user.chatId, largest.file_id);
    expect(again.photo.at(-1)!.file_id).toBe(largest.file_id);
    expect(
      (await rejection(api.sendPhoto(user.chatId, new InputFile(Buffer.from("not an image"))))).description,
    ).toBe("Bad Request: IMAGE_PROCESS_FAILED");
    expect(user.messages().map((m) => m.caption ?? null)).toEqual(["done", null]);

    tg.setRules({ maxUploadBytes: 100_000, maxPhotoUploadBytes: 500 });
    try {
      const tooBig = await rejection(
        api.sendDocument(user.chatId, new InputFile(Buffer.alloc(100_001), "big.bin")),
      );
      expect(tooBig.error_code).toBe(413);
      const bigPhoto = await rejection(
        api.sendPhoto(user.chatId, new InputFile(solidPng(400, 400, [1, 2, 3]))),
      );
      expect(bigPhoto.error_code).toBe(400);
    } finally {
      tg.setRules({ maxUploadBytes: 50 * 2 ** 20, maxPhotoUploadBytes: 10 * 2 ** 20 });
    }
  });

  test("a user's photo and document reach the bot; a big file cannot be downloaded", async () => {
    const api = newBot().api;
    const user = tg.user();
    const photo = await user.sendPhoto({ width: 1600, height: 900, caption: "edit this" });
    const largest = photo.photo!.at(-1)!;
    expect(largest).toMatchObject({ width: 1600, height: 900 });
    const file = await api.getFile(largest.file_id);
    const bytes = Buffer.from(
      await (await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`)).arrayBuffer(),
    );
    expect(bytes.equals(tg.fileBytes(largest.file_id))).toBe(true);

    const big = await user.sendDocument({
      fileName: "big.mp4",
      mimeType: "video/mp4",
      declaredSize: 30 * 1024 * 1024,
    });
    expect(big.document?.file_size).toBe(30 * 1024 * 1024);
    expect((await rejection(api.getFile(big.document!.file_id))).description).toBe(
      "Bad Request: file is too big",
    );
  });

  test("a media group is 2–10 items of compatible kinds, sent as one album", async () => {
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    const album = await api.sendMediaGroup(user.chatId, [
      InputMediaBuilder.photo(new InputFile(solidPng(100, 100)), { caption: "one" }),
      InputMediaBuilder.photo(new InputFile(solidPng(200, 100))),
    ]);
    expect(album).toHaveLength(2);
    const groupIds = album.map((m) => (m as Message).media_group_id);
    expect(groupIds[0]).toBeDefined();
    expect(groupIds[1]).toBe(groupIds[0]);
    expect(user.messages().map((m) => m.photo?.at(-1)?.width)).toEqual([100, 200]);

    const single = await rejection(
      api.sendMediaGroup(user.chatId, [InputMediaBuilder.photo(new InputFile(solidPng(10, 10)))]),
    );
    expect(single.error_code).toBe(400);
    const mixed = await rejection(
      api.sendMediaGroup(user.chatId, [
        InputMediaBuilder.photo(new InputFile(solidPng(10, 10))),
        // the types forbid this mix; a bot that casts its way around them meets Telegram's refusal
        InputMediaBuilder.document(new InputFile(Buffer.from("pdf"), "a.pdf")) as unknown as InputMediaPhoto,
      ]),
    );
    expect(mixed.description).toBe("Bad Request: document can't be mixed with other media types");
  });
});

describe("Telegram's rules", () => {
  test("text, caption and callback data limits", async () => {
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    expect((await rejection(api.sendMessage(user.chatId, "x".repeat(4097)))).description).toBe(
      "Bad Request: message is too long",
    );
    // the limit counts the text after entity parsing
    await api.sendMessage(user.chatId, `<b>${"x".repeat(4096)}</b>`, { parse_mode: "HTML" });
    expect(
      (await rejection(api.sendMessage(user.chatId, "<b>bold</i>", { parse_mode: "HTML" }))).description,
    ).toMatch(/^Bad Request: can't parse entities/);
    expect(
      (await rejection(api.sendMessage(user.chatId, "1.5", { parse_mode: "MarkdownV2" }))).description,
    ).toMatch(/Character '\.' is reserved/);
    expect((await rejection(api.sendMessage(user.chatId, "   "))).description).toBe(
      "Bad Request: message text is empty",
    );
    const keyboard = new InlineKeyboard().text("Go", "x".repeat(65));
    expect(
      (await rejection(api.sendMessage(user.chatId, "pick", { reply_markup: keyboard }))).description,
    ).toBe("Bad Request: BUTTON_DATA_INVALID");
    const caption = await rejection(
      api.sendPhoto(user.chatId, new InputFile(solidPng(10, 10)), { caption: "c".repeat(1025) }),
    );
    expect(caption.description).toBe("Bad Request: message caption is too long");
    expect(tg.transcript(user.chatId)).toContain("message is too long");
  });

  test("an edit that changes nothing is refused; a missing message cannot be edited", async () => {
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    const sent = await api.sendMessage(user.chatId, "Working…");
    await api.editMessageText(user.chatId, sent.message_id, "Done");
    const same = await rejection(api.editMessageText(user.chatId, sent.message_id, "Done"));
    expect(same.description).toMatch(/^Bad Request: message is not modified/);
    const missing = await rejection(api.editMessageText(user.chatId, 9999, "Done"));
    expect(missing.description).toBe("Bad Request: message to edit not found");
    const [message] = user.messages();
    expect(message).toMatchObject({ text: "Done" });
    expect(message!.history.map((m) => m.text)).toEqual(["Working…"]);
  });

  test("flood control answers 429 with retry_after", async () => {
    tg.setRules({
      flood: { perChat: { perSecond: 1, burst: 3 }, perGroupPerMinute: 20, globalPerSecond: 30 },
    });
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => api.sendMessage(user.chatId, `n${n}`)),
    );
    const refused = results.filter((r) => r.status === "rejected").map((r) => r.reason);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    const error = refused[0];
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(429);
    expect((error as GrammyError).parameters.retry_after).toBeGreaterThanOrEqual(1);

    tg.setRules({ flood: false });
    tg.failNext("sendMessage", { code: 429, description: "Too Many Requests: retry after 7", retryAfter: 7 });
    expect((await rejection(api.sendMessage(user.chatId, "x"))).parameters.retry_after).toBe(7);
    await api.sendMessage(user.chatId, "x");
  });

  test("a user who blocked the bot is 403", async () => {
    const api = newBot().api;
    const user = tg.user();
    await user.send("/start");
    await api.sendMessage(user.chatId, "hello");
    await user.block();
    const error = await rejection(api.sendMessage(user.chatId, "are you there?"));
    expect(error.error_code).toBe(403);
    expect(error.description).toBe("Forbidden: bot was blocked by the user");
    const updates = await api.getUpdates({ timeout: 0, allowed_updates: [] });
    expect(updates.some((u) => u.my_chat_member?.new_chat_member.status === "kicked")).toBe(true);
    await api.getUpdates({ offset: -1, timeout: 0 });
  });
});

describe("buttons", () => {
  test("a press reaches the bot as a callback query, which it answers and edits", async () => {
    const bot = newBot();
    bot.command("image", (ctx) =>
      ctx.reply("Pick a ratio", {
        reply_markup: new InlineKeyboard().text("1:1", "ratio:1:1").text("16:9", "ratio:16:9"),
      }),
    );
    bot.callbackQuery(/^ratio:(.+)$/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Noted" });
      await ctx.editMessageText(`Ratio ${ctx.match[1]}`);
    });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const user = tg.user();
    await user.send("/image");
    await user.waitFor((m) => m.reply_markup);
    const queryId = await user.press("16:9");
    expect(await user.waitForAnswer(queryId)).toEqual({ text: "Noted" });
    const edited = await user.waitFor((m) => m.text === "Ratio 16:9");
    expect(edited.reply_markup).toBeUndefined();
    expect(edited.history[0]?.text).toBe("Pick a ratio");
    await expect(user.press("1:1")).rejects.toThrow(/no inline button/);
    await bot.stop();
    // answering the same query twice is refused
    const again = await rejection(bot.api.answerCallbackQuery(queryId));
    expect(again.description).toMatch(/query is too old/);
  });
});

describe("groups", () => {
  test("privacy mode, forum topics and the per-group limit", async () => {
    const api = newBot().api;
    const alice = tg.user({ firstName: "Alice" });
    const bob = tg.user({ firstName: "Bob" });
    const group = tg.group({ title: "Studio", forum: true, members: [alice, bob] });
    const topic = group.createTopic(alice, "Renders");
    await alice.sendIn(group, "just chatting", { threadId: topic });
    await alice.sendIn(group, "/image@other_bot");
    const command = await bob.sendIn(group, "/image", { threadId: topic });
    const updates = await api.getUpdates({ timeout: 0 });
    const texts = updates.map((u) => u.message?.text).filter(Boolean);
    expect(texts).toEqual(["/image"]);
    expect(command).toMatchObject({ message_thread_id: topic, is_topic_message: true });

    const answer = await api.sendMessage(group.id, "On it", { message_thread_id: topic });
    expect(answer.message_thread_id).toBe(topic);
    expect((await rejection(api.sendMessage(group.id, "lost", { message_thread_id: 999 }))).description).toBe(
      "Bad Request: message thread not found",
    );
    const reply = await bob.replyTo(answer, "thanks");
    expect(reply).toMatchObject({
      message_thread_id: topic,
      reply_to_message: { message_id: answer.message_id },
    });
    expect(group.messages().map((m) => m.text)).toEqual(["On it"]);

    tg.setRules({ flood: { perChat: false, perGroupPerMinute: 3, globalPerSecond: false } });
    for (const n of [1, 2, 3]) await api.sendMessage(group.id, `update ${n}`);
    const limited = await rejection(api.sendMessage(group.id, "one too many"));
    expect(limited.error_code).toBe(429);
    expect(limited.parameters.retry_after).toBeGreaterThan(50);
    await api.getUpdates({ offset: -1, timeout: 0 });
  });
});

describe("group members", () => {
  test("getChatMember answers creator, administrator, member and left as Telegram does", async () => {
    const api = newBot().api;
    const [creator, admin, member, gone] = [tg.user(), tg.user(), tg.user(), tg.user()];
    const group = tg.group({ members: [member, gone], creator, admins: [admin] });
    group.leave(gone);
    const status = async (userId: number) => (await api.getChatMember(group.id, userId)).status;
    expect(await status(creator.id)).toBe("creator");
    expect(await status(admin.id)).toBe("administrator");
    expect(await status(member.id)).toBe("member");
    expect(await status(gone.id)).toBe("left");
    const unknown = await rejection(api.getChatMember(group.id, 42));
    expect(unknown.error_code).toBe(400);
    expect(unknown.description).toMatch(/PARTICIPANT_ID_INVALID/);
  });
});

describe("menus, payments and inline mode", () => {
  test("command menus by scope and language", async () => {
    const api = newBot().api;
    const user = tg.user({ language: "fa" });
    await api.setMyCommands([{ command: "start", description: "Start" }]);
    await api.setMyCommands([{ command: "start", description: "شروع" }], {
      scope: { type: "all_private_chats" },
      language_code: "fa",
    });
    expect(user.commandMenu()).toEqual([{ command: "start", description: "شروع" }]);
    expect(tg.user({ language: "en" }).commandMenu()).toEqual([{ command: "start", description: "Start" }]);
    expect(
      await api.getMyCommands({ scope: { type: "all_private_chats" }, language_code: "fa" }),
    ).toHaveLength(1);
    expect(
      (await rejection(api.setMyCommands([{ command: "Bad-Name", description: "x" }]))).description,
    ).toBe("Bad Request: BOT_COMMAND_INVALID");
    await api.deleteMyCommands({ scope: { type: "all_private_chats" }, language_code: "fa" });
    expect(user.commandMenu()).toEqual([{ command: "start", description: "Start" }]);
    await api.deleteMyCommands();
  });

  test("a Stars payment: invoice, pre-checkout, successful payment, one refund", async () => {
    const bot = newBot();
    const charges: string[] = [];
    bot.on("pre_checkout_query", (ctx) => ctx.answerPreCheckoutQuery(true));
    bot.on("message:successful_payment", (ctx) => {
      charges.push(ctx.message.successful_payment.telegram_payment_charge_id);
    });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const user = tg.user();
    await user.send("/buy");
    const invoice = await bot.api.sendInvoice(
      user.chatId,
      "100 credits",
      "Credits for images",
      "credits:100",
      "XTR",
      [{ label: "100 credits", amount: 50 }],
    );
    // one payment form at a time, and a paid invoice shows its receipt: a second Pay is refused
    const [paid, second] = await Promise.allSettled([user.pay(invoice), user.pay(invoice)]);
    if (paid.status !== "fulfilled" || !paid.value.ok) throw new Error("payment failed");
    expect(second.status === "rejected" && String(second.reason)).toMatch(/is being paid/);
    await expect(user.pay(invoice)).rejects.toThrow(/already paid/);
    await tg.idle();
    expect(charges).toEqual([paid.value.chargeId]);
    await bot.api.refundStarPayment(user.id, paid.value.chargeId);
    expect((await rejection(bot.api.refundStarPayment(user.id, paid.value.chargeId))).description).toBe(
      "Bad Request: CHARGE_ALREADY_REFUNDED",
    );
    const twoPrices = bot.api.sendInvoice(user.chatId, "x", "y", "z", "XTR", [
      { label: "a", amount: 1 },
      { label: "b", amount: 1 },
    ]);
    expect((await rejection(twoPrices)).error_code).toBe(400);
  });

  test("inline answers: at most 50 results with unique ids", async () => {
    const api = newBot().api;
    const user = tg.user();
    const article = (id: string) => ({
      type: "article" as const,
      id,
      title: id,
      input_message_content: { message_text: id },
    });
    const tooMany = user.inlineQuery("cats");
    const many = Array.from({ length: 51 }, (_, i) => article(`r${i}`));
    expect((await rejection(api.answerInlineQuery(tooMany, many))).description).toBe(
      "Bad Request: RESULTS_TOO_MUCH",
    );
    expect((await rejection(api.answerInlineQuery(tooMany, [article("a"), article("a")]))).description).toBe(
      "Bad Request: RESULT_ID_DUPLICATE",
    );
    await api.answerInlineQuery(tooMany, [article("a"), article("b")]);
    expect((await user.waitForInlineAnswer(tooMany)).results).toHaveLength(2);
    await api.getUpdates({ offset: -1, timeout: 0 });
  });
});

describe("more media", () => {
  test("send by URL, edit a caption and the media, chat actions", async () => {
    const api = newBot().api;
    const user = tg.user();
    const photo = await user.sendPhoto({ width: 320, height: 320 });
    const file = await api.getFile(photo.photo!.at(-1)!.file_id);
    const url = `${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`;
    const byUrl = await api.sendPhoto(user.chatId, url, { caption: "from a URL" });
    expect(byUrl.photo.at(-1)).toMatchObject({ width: 320, height: 320 });
    expect((await rejection(api.sendPhoto(user.chatId, `${tg.apiRoot}/missing.png`))).description).toBe(
      "Bad Request: failed to get HTTP URL content",
    );
    expect((await rejection(api.sendDocument(user.chatId, "no-such-file-id"))).description).toBe(
      "Bad Request: wrong file identifier/HTTP URL specified",
    );

    await api.editMessageCaption(user.chatId, byUrl.message_id, { caption: "renamed" });
    const video = await api.editMessageMedia(user.chatId, byUrl.message_id, {
      type: "video",
      media: new InputFile(Buffer.alloc(2048, 1), "clip.mp4"),
      caption: "now a video",
      duration: 5,
    });
    expect(video).toMatchObject({ caption: "now a video", video: { duration: 5, mime_type: "video/mp4" } });
    const current = user.messages().at(-1)!;
    expect(current.photo).toBeUndefined();
    expect(current.history.map((m) => m.caption)).toEqual(["from a URL", "renamed"]);

    await api.sendChatAction(user.chatId, "upload_photo");
    expect(tg.transcript(user.chatId)).toContain("bot is upload_photo");
    expect(
      (await rejection(api.raw.sendChatAction({ chat_id: user.chatId, action: "dancing" as "typing" })))
        .error_code,
    ).toBe(400);
  });

  test("a callback answered too late is refused", async () => {
    const api = newBot().api;
    tg.setRules({ queryMaxAgeMs: 30 });
    const user = tg.user();
    await user.send("/start");
    await api.sendMessage(user.chatId, "Confirm?", { reply_markup: new InlineKeyboard().text("Yes", "yes") });
    const early = await user.press("Yes");
    await api.answerCallbackQuery(early);
    const late = await user.press("Yes");
    await new Promise((r) => setTimeout(r, 60));
    expect((await rejection(api.answerCallbackQuery(late))).description).toBe(
      "Bad Request: query is too old and response timeout expired or query ID is invalid",
    );
    tg.setRules({ queryMaxAgeMs: 15_000 });
  });
});

describe("parse_mode", () => {
  test("HTML entities as Telegram reads them", () => {
    const parsed = parseFormatted(
      '<b>Bold <i>both</i></b> &amp; <a href="https://x.dev/?a=1&amp;b=2">link</a>\n<pre><code class="language-ts">x &lt; 1</code></pre><blockquote expandable>q</blockquote><tg-spoiler>s</tg-spoiler>',
      "HTML",
    );
    expect(parsed.text).toBe("Bold both & link\nx < 1qs");
    expect(parsed.entities).toEqual([
      { type: "italic", offset: 5, length: 4 },
      { type: "bold", offset: 0, length: 9 },
      { type: "text_link", offset: 12, length: 4, url: "https://x.dev/?a=1&b=2" },
      { type: "pre", offset: 17, length: 5, language: "ts" },
      { type: "expandable_blockquote", offset: 22, length: 1 },
      { type: "spoiler", offset: 23, length: 1 },
    ]);
    expect(() => parseFormatted("<br>", "HTML")).toThrow(/Unsupported start tag "br"/);
    expect(() => parseFormatted("<b>open", "HTML")).toThrow(
      /Can't find end tag corresponding to start tag "b"/,
    );
    expect(() => parseFormatted("a < b", "HTML")).toThrow(/can't parse entities/);
  });

  test("escaped user text survives HTML and MarkdownV2 unchanged", () => {
    const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const escapeMarkdownV2 = (s: string) => s.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, "\\$&");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        expect(parseFormatted(escapeHtml(text), "HTML").text).toBe(text);
        expect(parseFormatted(escapeMarkdownV2(text), "MarkdownV2").text).toBe(text);
      }),
    );
    expect(parseFormatted("*bold* _it_ __u__ ~s~ ||sp|| [l](https://a.b/c\\)) `c`", "MarkdownV2")).toEqual({
      text: "bold it u s sp l c",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "italic", offset: 5, length: 2 },
        { type: "underline", offset: 8, length: 1 },
        { type: "strikethrough", offset: 10, length: 1 },
        { type: "spoiler", offset: 12, length: 2 },
        { type: "text_link", offset: 15, length: 1, url: "https://a.b/c)" },
        { type: "code", offset: 17, length: 1 },
      ],
    });
  });
});
