import type { TestGroup, TestUser } from "../../sandbox/playground/telegram";

/** An inline result as the tests read it. */
export interface InlineResult {
  id: string;
  type: string;
  title?: string;
  photo_file_id?: string;
  document_file_id?: string;
  input_message_content?: { message_text: string };
}

/** The user's inline query, answered. */
export async function askInline(user: TestUser, query: string) {
  const id = user.inlineQuery(query);
  const answer = await user.waitForInlineAnswer(id);
  return { id, answer, results: answer.results as unknown as InlineResult[] };
}

export const offerOf = (results: InlineResult[]) => results.find((r) => r.id.startsWith("o:"));

/** `@bot <prompt>`, then the offer placed in `group`: its inline message id. */
export async function placeOffer(user: TestUser, prompt: string, group: TestGroup) {
  const { id, results } = await askInline(user, prompt);
  const offer = offerOf(results);
  if (!offer) throw new Error(`no offer in ${JSON.stringify(results)}`);
  const placed = user.chooseInlineResult(id, offer.id, { chat: group });
  if (!placed.inlineMessageId) throw new Error("the offer has a keyboard: it must get an inline_message_id");
  return { offer, inlineMessageId: placed.inlineMessageId };
}

export const confirmIn = (user: TestUser, inlineMessageId: string) =>
  user.pressInline(inlineMessageId, /Confirm/);
