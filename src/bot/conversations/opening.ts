import type { Context } from "grammy";
import type { Ledger } from "../../credits/ledger";
import type { LinkDurationProbe } from "../../media/link-duration";
import type { Prices } from "../../pricing/prices";
import type { Language } from "../../users/language";
import type { Translate } from "../i18n";
import { negotiateLanguage, translate } from "../i18n";
import type { ConfirmDeps, Requester } from "./confirm-request";
import { type Conv, Screen } from "./screen";

export interface ConversationDeps extends ConfirmDeps {
  prices: Prices;
  /** the balance a conversation starts from */
  ledger: Pick<Ledger, "account">;
  /** reads a dubbing link's length before it is priced (default: the production probe) */
  linkDuration?: LinkDurationProbe;
}

/** What every conversation starts from; `replyTo` is the request message the result answers. */
export interface SeedBase {
  replyTo?: number;
}

export interface Opening {
  screen: Screen;
  t: Translate;
  language: Language;
  who: Requester;
  /** credits available when the conversation started */
  available: number;
}

/** Reads, once and through `external`, who is asking, in which language, with which balance. */
export async function openConversation(
  deps: Pick<ConversationDeps, "ledger">,
  conversation: Conv,
  ctx: Context,
  seed: SeedBase,
): Promise<Opening> {
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  if (chatId === undefined || userId === undefined) throw new Error("a conversation needs a chat and a user");
  const { language, available } = await conversation.external(async (outer) => ({
    language: negotiateLanguage(outer),
    available: (await deps.ledger.account(userId)).available,
  }));
  const t: Translate = (key, vars) => translate(language, key, vars);
  const threadId = ctx.msg?.is_topic_message ? ctx.msg.message_thread_id : undefined;
  const screen = new Screen(conversation, ctx, chatId, t, threadId);
  return {
    screen,
    t,
    language,
    available,
    who: { userId, language, chatId, threadId: threadId ?? null, replyTo: seed.replyTo ?? null },
  };
}
