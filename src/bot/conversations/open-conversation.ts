import type { Context } from "grammy";
import { audienceOfChat, forAudience } from "../../platform/i18n/audience";
import type { Translate } from "../../platform/i18n/i18n";
import { negotiateLanguage, translate } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import { type Conv, Screen } from "./screen";

/** What every conversation starts from; `replyTo` is the request message the result answers. */
export interface SeedBase {
  replyTo?: number;
}

/** Who asks and where the answer goes; fixed when the conversation starts. */
export interface Requester {
  userId: number;
  language: string;
  chatId: number;
  threadId: number | null;
  replyTo: number | null;
}

export interface Opening {
  screen: Screen;
  t: Translate;
  language: Language;
  who: Requester;
}

/** Reads, once and through `external`, who is asking and in which language; the screen talks in it. */
export async function openConversation(conversation: Conv, ctx: Context, seed: SeedBase): Promise<Opening> {
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  if (chatId === undefined || userId === undefined) throw new Error("a conversation needs a chat and a user");
  const language = await conversation.external((outer) => negotiateLanguage(outer));
  // a panel in a group or a topic is read by the whole group: its words say nothing of the account
  const t: Translate = forAudience(audienceOfChat(ctx.chat), (key, vars) => translate(language, key, vars));
  const threadId = ctx.msg?.is_topic_message ? ctx.msg.message_thread_id : undefined;
  const screen = new Screen(conversation, ctx, chatId, t, threadId);
  return {
    screen,
    t,
    language,
    who: { userId, language, chatId, threadId: threadId ?? null, replyTo: seed.replyTo ?? null },
  };
}
