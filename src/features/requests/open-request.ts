import type { Context } from "grammy";
import { type Opening, openConversation, type SeedBase } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import type { Ledger } from "../../domain/credits/ledger";
import type { DubInputRules } from "../../domain/generations/inputs";
import type { Prices } from "../../domain/pricing/prices";
import type { LinkDurationProbe } from "../../platform/links/link-duration";
import type { ConfirmDeps } from "./confirm-request";

export interface ConversationDeps extends ConfirmDeps {
  prices: Prices;
  /** the balance a conversation starts from */
  ledger: Pick<Ledger, "account">;
  /** reads a dubbing link's length before it is priced (default: the production probe) */
  linkDuration?: LinkDurationProbe;
  /** how long and how big a dubbing source may be (the defaults: the cloud Bot API, an hour) */
  dubRules?: DubInputRules;
}

export interface RequestOpening extends Opening {
  /** credits available when the conversation started */
  available: number;
}

/** A request's conversation opens with who asks, in which language, and the balance it starts from. */
export async function openRequest(
  deps: Pick<ConversationDeps, "ledger">,
  conversation: Conv,
  ctx: Context,
  seed: SeedBase,
): Promise<RequestOpening> {
  const opening = await openConversation(conversation, ctx, seed);
  const { available } = await conversation.external(() => deps.ledger.account(opening.who.userId));
  return { ...opening, available };
}
