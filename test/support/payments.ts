import type { BotMessage, TestUser } from "../../sandbox/playground/telegram";

export const isInvoice = (m: BotMessage) => Boolean(m.invoice);

/** The packs list: the message whose buttons are `· <stars> ⭐` packs. */
export const isPacks = (m: BotMessage) =>
  Boolean(m.reply_markup?.inline_keyboard.flat().some((b) => / ⭐$/.test(b.text)));

/** In `packs`, the pack whose button shows `stars` ⭐ pressed: the invoice it brings. */
export async function invoiceFromPacks(
  user: TestUser,
  packs: BotMessage,
  stars: number,
): Promise<BotMessage> {
  await user.press(new RegExp(`· ${stars} ⭐$`), { message: packs });
  return user.waitFor(isInvoice, { after: packs });
}

/** /buy, then the pack whose button shows `stars` ⭐: the invoice it brings. */
export async function invoiceFor(user: TestUser, stars: number): Promise<BotMessage> {
  const sent = await user.send("/buy");
  return invoiceFromPacks(user, await user.waitFor(isPacks, { after: sent }), stars);
}
