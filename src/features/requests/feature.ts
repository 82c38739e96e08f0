import { type ConversationBuilder, createConversation } from "@grammyjs/conversations";
import { Composer, type Context, type MiddlewareFn } from "grammy";
import type { Message } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { conversationApi } from "../../bot/conversations/plugin";
import { dropStaleButtons } from "../../bot/conversations/screen";
import {
  type Checked,
  type DubInputRules,
  defaultDubInputRules,
  linkIn,
  mediaIn,
  type PhotoInput,
  photoIn,
} from "../../domain/generations/inputs";
import { promptProblem } from "../../domain/generations/prompt-rule";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Users } from "../../domain/users/users";
import type { Database } from "../../platform/db/client";
import type { Operation } from "../../platform/media-service/catalog";
import { isDubbingLanguage, limits } from "../../platform/media-service/catalog";
import { panelPrefix } from "../../platform/telegram/callback-data";
import { type DubSeed, dubConversation } from "./dub";
import { type EditSeed, editConversation } from "./edit";
import { historyFeature } from "./history";
import { type ImageSeed, imageConversation } from "./image";
import type { ConversationDeps } from "./open-request";
import { resultActions } from "./result-actions";
import { type VideoSeed, videoConversation } from "./video";

/** Commands of this feature, for the command menu (each has a `cmd-<name>` description). */
export const requestCommands = ["image", "edit", "video", "dub", "history"] as const;

export interface RequestFeatureDeps extends ConversationDeps {
  generations: ConversationDeps["generations"] & Pick<GenerationReads, "get" | "paramsOf" | "recent">;
  /** /history's costs */
  db: Database;
  /** a user found to have blocked the bot mid-conversation is marked */
  users: Pick<Users, "markBlocked">;
  /** the Mini App: /history's "Gallery" button */
  miniAppUrl?: string | undefined;
}

type Seed = ImageSeed | EditSeed | VideoSeed | DubSeed;

/**
 * A conversation left alone this long (real time) ends at the user's next
 * update, which then goes to the rest of the bot: an abandoned panel does not
 * capture someone's messages a week later.
 */
const conversationIdleMs = 24 * 60 * 60 * 1000;

/** A new request always starts clean: whatever conversation was open is left. */
export async function start(ctx: BotContext, operation: Operation, seed: Seed): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(operation, seed);
}

const argument = (ctx: { match: string | RegExpMatchArray }) =>
  typeof ctx.match === "string" && ctx.match.trim() !== "" ? ctx.match.trim() : undefined;

/**
 * Text after a command is taken as the prompt only when the prompt step would
 * accept it; otherwise the user is told why and the conversation asks for one.
 */
async function promptArgument(ctx: BotContext, text: string | undefined): Promise<string | undefined> {
  if (text === undefined) return undefined;
  const problem = promptProblem(text, (key, vars) => ctx.t(key, vars));
  if (problem === undefined) return text;
  await ctx.reply(problem);
  return undefined;
}

function accepted<T>(checked: Checked<T> | undefined): T | undefined {
  return checked?.ok ? checked.value : undefined;
}

/** /edit on a photo (as its caption) or in reply to one brings the photo along. */
function photosOf(message: Message): PhotoInput[] {
  const own = accepted(photoIn(message));
  const replied = accepted(photoIn(message.reply_to_message));
  return [own ?? replied].filter((p): p is PhotoInput => p !== undefined);
}

/** `/edit …` or `/dub …` at the start of a caption (addressed to this bot or to none). */
export function captionCommand(
  caption: string | undefined,
  botUsername: string,
): { name: "edit" | "dub"; text: string | undefined } | undefined {
  const m = /^\/(edit|dub)(?:@(\w+))?(?:\s+([\s\S]*))?$/i.exec(caption?.trim() ?? "");
  if (!m) return undefined;
  if (m[2] && m[2].toLowerCase() !== botUsername.toLowerCase()) return undefined;
  const text = m[3]?.trim();
  return { name: m[1]!.toLowerCase() as "edit" | "dub", text: text || undefined };
}

function dubSeedOf(message: Message, text: string | undefined, rules: DubInputRules): DubSeed {
  const seed: DubSeed = { replyTo: message.message_id };
  for (const word of text?.split(/\s+/) ?? []) {
    const code = word.toLowerCase();
    if (isDubbingLanguage(code)) seed.target = code;
    const link = linkIn(word);
    if (link?.ok) seed.media = { ref: { kind: "url", url: link.url }, label: link.url };
  }
  const replied = message.reply_to_message;
  const repliedMedia = accepted(mediaIn(replied, rules));
  seed.media ??=
    accepted(mediaIn(message, rules)) ??
    (repliedMedia && replied ? { ...repliedMedia, messageId: replied.message_id } : undefined);
  return seed;
}

/** A file brought along with the command that cannot be used: say why; the conversation asks for another. */
async function explainRefused(ctx: BotContext, ...found: Array<Checked<unknown> | undefined>): Promise<void> {
  const refused = found.find((c) => c !== undefined && !c.ok);
  if (!refused || refused.ok) return;
  const { key, ...vars } = refused.problem;
  const variables: Record<string, string | number> = { ...vars, max: limits.editMaxImageUrls };
  await ctx.reply(ctx.t(key, variables));
}

/**
 * The four guided conversations (/image, /edit, /video, /dub), the buttons
 * under results ("again" `rg:`, "edit this" `ed:`, "4K" `up:`: ./result-actions), and /history. Requires
 * the conversations plugin installed earlier (createBot does).
 */
export function requestFeatures(deps: RequestFeatureDeps): Composer<BotContext>[] {
  const conversations = new Composer<BotContext>();
  // made per update: the plugins need this update's logger
  const conversation =
    (id: Operation, builder: ConversationBuilder<BotContext, Context>): MiddlewareFn<BotContext> =>
    (ctx, next) =>
      createConversation<BotContext, Context>(builder, {
        id,
        maxMillisecondsToWait: conversationIdleMs,
        plugins: conversationApi(deps.users, ctx),
      })(ctx, next);
  conversations.use(conversation("image", imageConversation(deps)));
  conversations.use(conversation("edit", editConversation(deps)));
  conversations.use(conversation("video", videoConversation(deps)));
  conversations.use(conversation("dub", dubConversation(deps)));

  const entries = new Composer<BotContext>();
  entries.command("image", async (ctx) => {
    const prompt = await promptArgument(ctx, argument(ctx));
    return start(ctx, "image", { replyTo: ctx.msg.message_id, ...(prompt ? { prompt } : {}) });
  });
  entries.command("video", async (ctx) => {
    const prompt = await promptArgument(ctx, argument(ctx));
    return start(ctx, "video", { replyTo: ctx.msg.message_id, ...(prompt ? { prompt } : {}) });
  });
  const editSeed = (message: Message, text: string | undefined): EditSeed => ({
    replyTo: message.message_id,
    images: photosOf(message),
    ...(text ? { prompt: text } : {}),
    ...(message.media_group_id ? { album: message.media_group_id } : {}),
  });
  const startEdit = async (ctx: BotContext, message: Message, text: string | undefined) => {
    const seed = editSeed(message, await promptArgument(ctx, text));
    if (seed.images?.length === 0)
      await explainRefused(ctx, photoIn(message), photoIn(message.reply_to_message));
    await start(ctx, "edit", seed);
  };
  const startDub = async (ctx: BotContext, message: Message, text: string | undefined) => {
    const rules = deps.dubRules ?? defaultDubInputRules;
    const seed = dubSeedOf(message, text, rules);
    if (!seed.media)
      await explainRefused(ctx, mediaIn(message, rules), mediaIn(message.reply_to_message, rules));
    await start(ctx, "dub", seed);
  };
  entries.command("edit", (ctx) => startEdit(ctx, ctx.msg, argument(ctx)));
  entries.command("dub", (ctx) => startDub(ctx, ctx.msg, argument(ctx)));
  // grammY matches commands in message text only: "/edit …" or "/dub …" as a caption is read here
  entries.on(
    ["message:photo", "message:document", "message:audio", "message:video", "message:voice"],
    (ctx, next) => {
      const command = captionCommand(ctx.msg.caption, ctx.me.username);
      if (command?.name === "edit") return startEdit(ctx, ctx.msg, command.text);
      if (command?.name === "dub") return startDub(ctx, ctx.msg, command.text);
      return next();
    },
  );

  entries.use(resultActions(deps, start));

  // A button of a conversation that has ended (confirmed, cancelled, or replaced).
  entries.callbackQuery(new RegExp(`^${panelPrefix}`), async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
    await dropStaleButtons(ctx);
  });

  return [conversations, entries, historyFeature(deps)];
}
