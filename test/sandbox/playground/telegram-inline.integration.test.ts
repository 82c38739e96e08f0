import { Bot, GrammyError, InlineKeyboard, InputFile, InputMediaBuilder } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  startTelegramStandIn,
  type TelegramStandIn,
  type TestUser,
} from "../../../sandbox/playground/telegram";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import { inlineUploadRefused } from "../../../sandbox/playground/telegram/methods/media";

let tg: TelegramStandIn;
let bot: Bot;
let offset = 0;

async function rejection(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error;
}

/** Every update delivered since the last call (confirmed, so the next call sees only newer ones). */
async function newUpdates(): Promise<Update[]> {
  const updates = await bot.api.getUpdates({ offset, timeout: 0 });
  if (updates.length > 0) offset = updates.at(-1)!.update_id + 1;
  return updates;
}

const offerKeyboard = new InlineKeyboard().text("✅ Confirm", "il:offer1");

/** `user` types a query and the bot answers with an article with a keyboard ("kb") and one without ("plain"). */
async function answeredQuery(user: TestUser) {
  const queryId = user.inlineQuery("a cat");
  await bot.api.answerInlineQuery(queryId, [
    {
      type: "article",
      id: "kb",
      title: "Generate",
      input_message_content: { message_text: "🎨 a cat · 4 credits · tap Confirm" },
      reply_markup: offerKeyboard,
    },
    { type: "article", id: "plain", title: "Help", input_message_content: { message_text: "How to use me" } },
  ]);
  await newUpdates();
  return queryId;
}

beforeAll(async () => {
  tg = await startTelegramStandIn({ rules: { flood: false } });
  bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
});

beforeEach(async () => {
  tg.setInlineFeedback(true);
  await newUpdates();
});

afterAll(async () => {
  await tg.close();
});

describe("inline results placed in a chat", () => {
  test("a result with a keyboard gets an inline_message_id; the placed message is the user's, via the bot", async () => {
    const alice = tg.user({ firstName: "Alice" });
    const bob = tg.user({ firstName: "Bob" });
    const group = tg.group({ members: [alice, bob] });
    const queryId = await answeredQuery(alice);

    const placed = alice.chooseInlineResult(queryId, "kb", { chat: group });
    expect(placed.inlineMessageId).toMatch(/^[\w-]+$/);
    expect(placed.message).toMatchObject({
      from: { id: alice.id },
      via_bot: { id: tg.botUser.id },
      text: "🎨 a cat · 4 credits · tap Confirm",
      reply_markup: offerKeyboard,
    });
    const updates = await newUpdates();
    // privacy mode lets messages sent via the bot through; feedback tells the choice with the id
    expect(updates.map((u) => Object.keys(u).find((k) => k !== "update_id"))).toEqual([
      "message",
      "chosen_inline_result",
    ]);
    expect(updates[1]?.chosen_inline_result).toMatchObject({
      result_id: "kb",
      from: { id: alice.id },
      query: "a cat",
      inline_message_id: placed.inlineMessageId,
    });
    expect(tg.inlineMessage(placed.inlineMessageId!)?.text).toBe("🎨 a cat · 4 credits · tap Confirm");
  });

  test("a result without a keyboard gets no inline_message_id, and the bot is told none", async () => {
    const alice = tg.user();
    const group = tg.group({ members: [alice] });
    const queryId = await answeredQuery(alice);
    const placed = alice.chooseInlineResult(queryId, "plain", { chat: group });
    expect(placed.inlineMessageId).toBeUndefined();
    const chosen = (await newUpdates()).find((u) => u.chosen_inline_result)?.chosen_inline_result;
    expect(chosen).toMatchObject({ result_id: "plain" });
    expect(chosen).not.toHaveProperty("inline_message_id");
  });

  test("without inline feedback the bot hears nothing of the choice", async () => {
    tg.setInlineFeedback(false);
    const alice = tg.user();
    const group = tg.group({ members: [alice] });
    const queryId = await answeredQuery(alice);
    const placed = alice.chooseInlineResult(queryId, "kb", { chat: group });
    expect(placed.inlineMessageId).toBeDefined();
    const updates = await newUpdates();
    expect(updates.some((u) => u.chosen_inline_result)).toBe(false);
    expect(updates.some((u) => u.message?.via_bot)).toBe(true);
  });

  test("a cached result must name a file Telegram knows, of its type", async () => {
    const alice = tg.user();
    const queryId = alice.inlineQuery("old");
    const unknown = await rejection(
      bot.api.answerInlineQuery(queryId, [{ type: "photo", id: "p", photo_file_id: "AgADnope" }]),
    );
    expect(unknown.description).toBe("Bad Request: wrong file identifier/HTTP URL specified");
    const noText = await rejection(
      bot.api.answerInlineQuery(queryId, [{ type: "article", id: "a", title: "t" } as never]),
    );
    expect(noText.error_code).toBe(400);
  });

  test("a cached result of the wrong type refuses the whole answer; of its own type it is accepted and placed", async () => {
    const alice = tg.user();
    await alice.send("/start");
    const group = tg.group({ members: [alice] });
    const doc = await bot.api.sendDocument(alice.chatId, new InputFile(solidPng(32, 32), "big.png"));
    const photo = await bot.api.sendPhoto(alice.chatId, new InputFile(solidPng(32, 32), "a.png"));
    const documentId = doc.document!.file_id;
    const photoId = photo.photo.at(-1)!.file_id;
    const queryId = alice.inlineQuery("old");
    const help = {
      type: "article",
      id: "help",
      title: "Help",
      input_message_content: { message_text: "How to use me" },
    } as const;

    const asPhoto = await rejection(
      bot.api.answerInlineQuery(queryId, [help, { type: "photo", id: "d", photo_file_id: documentId }]),
    );
    expect(asPhoto.description).toBe("Bad Request: can't use file of type Document as Photo");
    const photoAsDocument = await rejection(
      bot.api.answerInlineQuery(queryId, [
        { type: "document", id: "p", title: "p", document_file_id: photoId },
      ]),
    );
    expect(photoAsDocument.description).toBe("Bad Request: can't use file of type Photo as Document");
    const asAudio = await rejection(
      bot.api.answerInlineQuery(queryId, [{ type: "audio", id: "a", audio_file_id: documentId }]),
    );
    expect(asAudio.description).toBe("Bad Request: can't use file of type Document as Audio");
    // refused answers left the query unanswered: it can still be answered
    expect(
      await bot.api.answerInlineQuery(queryId, [
        help,
        { type: "document", id: "d", title: "big.png", document_file_id: documentId },
        { type: "photo", id: "p", photo_file_id: photoId },
      ]),
    ).toBe(true);
    const placed = alice.chooseInlineResult(queryId, "d", { chat: group });
    expect(placed.message.document?.file_id).toBe(documentId);
  });
});

describe("the button above inline results (answerInlineQuery `button`)", () => {
  test("a /start deep link is kept with the answer", async () => {
    const alice = tg.user();
    const queryId = alice.inlineQuery("a cat");
    const button = { text: "Start the bot first", start_parameter: "inline" };
    expect(await bot.api.answerInlineQuery(queryId, [], { button })).toBe(true);
    expect(await alice.waitForInlineAnswer(queryId)).toMatchObject({ results: [], button });
  });

  test.each([
    [{ text: "Start", start_parameter: "" }, "Bad Request: START_PARAM_INVALID"],
    [{ text: "Start", start_parameter: "x".repeat(65) }, "Bad Request: START_PARAM_INVALID"],
    [{ text: "Start", start_parameter: "in line" }, "Bad Request: START_PARAM_INVALID"],
    [{ text: "Start", start_parameter: "über" }, "Bad Request: START_PARAM_INVALID"],
    [{ text: " ", start_parameter: "inline" }, "Bad Request: BUTTON_TEXT_EMPTY"],
    [{ text: "Start" }, "Bad Request: BUTTON_TYPE_INVALID"],
    [
      { text: "Start", start_parameter: "inline", web_app: { url: "https://example.com/app" } },
      "Bad Request: BUTTON_TYPE_INVALID",
    ],
  ])("%j is refused", async (button, description) => {
    const alice = tg.user();
    const queryId = alice.inlineQuery("a cat");
    const refused = await rejection(bot.api.answerInlineQuery(queryId, [], { button }));
    expect(refused.description).toBe(description);
    // the query can still be answered properly
    const ok = { text: "Start", start_parameter: `A-z_0-9${"y".repeat(57)}` };
    expect(ok.start_parameter).toHaveLength(64);
    expect(await bot.api.answerInlineQuery(queryId, [], { button: ok })).toBe(true);
  });
});

describe("buttons and edits of an inline message", () => {
  async function placedOffer() {
    const alice = tg.user({ firstName: "Alice" });
    const bob = tg.user({ firstName: "Bob" });
    const outsider = tg.user({ firstName: "Eve" });
    const group = tg.group({ members: [alice, bob] });
    const queryId = await answeredQuery(alice);
    const { inlineMessageId } = alice.chooseInlineResult(queryId, "kb", { chat: group });
    await newUpdates();
    return { alice, bob, outsider, group, id: inlineMessageId! };
  }

  test("anyone in the chat can press: a callback query with inline_message_id and chat_instance, no message", async () => {
    const { bob, outsider, id } = await placedOffer();
    const queryId = bob.pressInline(id, /Confirm/);
    const [update] = await newUpdates();
    expect(update?.callback_query).toMatchObject({
      id: queryId,
      from: { id: bob.id },
      inline_message_id: id,
      data: "il:offer1",
    });
    expect(update?.callback_query?.chat_instance).toMatch(/\w+/);
    expect(update?.callback_query).not.toHaveProperty("message");
    await bot.api.answerCallbackQuery(queryId, { text: "not yours" });
    expect(await bob.waitForAnswer(queryId)).toEqual({ text: "not yours" });
    expect(() => outsider.pressInline(id, /Confirm/)).toThrow(/cannot see/);
  });

  test("editMessageText and editMessageReplyMarkup answer true, keep a history, and refuse a change to nothing", async () => {
    const { id } = await placedOffer();
    expect(await bot.api.editMessageTextInline(id, "queued")).toBe(true);
    const view = tg.inlineMessage(id)!;
    expect(view.text).toBe("queued");
    // an edit without reply_markup drops the keyboard, as Telegram does
    expect(view.reply_markup).toBeUndefined();
    expect(view.history.map((m) => m.text)).toEqual(["🎨 a cat · 4 credits · tap Confirm"]);
    const same = await rejection(bot.api.editMessageTextInline(id, "queued"));
    expect(same.description).toMatch(/^Bad Request: message is not modified/);
    expect(await bot.api.editMessageReplyMarkupInline(id, { reply_markup: offerKeyboard })).toBe(true);
    expect(tg.inlineMessage(id)?.reply_markup).toEqual(offerKeyboard);
    const unknown = await rejection(bot.api.editMessageTextInline("AgAAAnope", "x"));
    expect(unknown.description).toBe("Bad Request: MESSAGE_ID_INVALID");
  });

  test("editMessageMedia takes a file_id (text becomes a photo) but never an upload", async () => {
    const { alice, id } = await placedOffer();
    const upload = await rejection(
      bot.api.editMessageMediaInline(id, InputMediaBuilder.photo(new InputFile(solidPng(64, 64), "a.png"))),
    );
    expect(upload.description).toBe(`Bad Request: ${inlineUploadRefused}`);
    expect(tg.inlineMessage(id)?.text).toBeDefined();

    // a file_id obtained by sending the picture somewhere the bot can write
    await alice.send("/start");
    const sent = await bot.api.sendPhoto(alice.chatId, new InputFile(solidPng(64, 64), "a.png"));
    const fileId = sent.photo.at(-1)!.file_id;
    const media = InputMediaBuilder.photo(fileId, { caption: "a cat — 4 credits" });
    expect(await bot.api.editMessageMediaInline(id, media)).toBe(true);
    const view = tg.inlineMessage(id)!;
    expect(view.photo?.at(-1)?.file_id).toBe(fileId);
    expect(view.caption).toBe("a cat — 4 credits");
    expect(view.text).toBeUndefined();
    const again = await rejection(bot.api.editMessageMediaInline(id, media));
    expect(again.description).toMatch(/message is not modified/);
    expect(await bot.api.editMessageCaptionInline(id, { caption: "done" })).toBe(true);
    expect(tg.inlineMessage(id)?.caption).toBe("done");
  });
});
