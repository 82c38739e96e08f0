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
  /** the percent off the user's requests (their plan's) */
  discountOf(userId: number): Promise<number>;
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
  /** the prices this user pays: the list, less their plan's discount when the conversation started */
  prices: Prices;
}

/** A request's conversation opens with who asks, in which language, the balance it starts from and the prices it shows. */
export async function openRequest(
  deps: Pick<ConversationDeps, "ledger" | "prices" | "discountOf">,
  conversation: Conv,
  ctx: Context,
  seed: SeedBase,
): Promise<RequestOpening> {
  const opening = await openConversation(conversation, ctx, seed);
  const { userId } = opening.who;
  // one step of the replay log: the balance and the discount, both plain numbers
  const { available, discount } = await conversation.external(async () => {
    const [account, percent] = await Promise.all([deps.ledger.account(userId), deps.discountOf(userId)]);
    return { available: account.available, discount: percent };
  });
  return { ...opening, available, prices: deps.prices.withDiscount(discount) };
}
