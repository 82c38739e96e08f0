import type { Requester } from "../../bot/conversations/open-conversation";
import type { Conv, Screen } from "../../bot/conversations/screen";
import { openPrivateChat, privateWords, sendPrivately } from "../../bot/private-details";
import type { GenerationCreation } from "../../domain/generations/create";
import type { GenerationParamsInput } from "../../domain/generations/params";
import type { GenerationReads } from "../../domain/generations/reads";
import { type Refusal, refusalText } from "../../domain/generations/refusal";
import { queuedText } from "../../domain/generations/status";
import type { CreateResult } from "../../domain/generations/types";
import type { UsualDurations } from "../../domain/generations/usual-durations";
import type { PriceQuote } from "../../domain/pricing/prices";
import { audienceOfChatId } from "../../platform/i18n/audience";
import { faultPoint } from "../../platform/lib/fault-point";
import { buyKeyboard } from "../payments";
import type { SubmitOutcome } from "./panel";
import { type RememberedDeps, rememberConfirmed } from "./remembered";

export interface ConfirmDeps extends RememberedDeps {
  generations: Pick<GenerationCreation, "create" | "enqueueSubmit"> &
    Pick<GenerationReads, "waitingCount"> &
    Pick<UsualDurations, "usualDuration">;
}

type Created =
  /**
   * `status`: what the panel turns into while the generation waits (the text
   * recorded with it, also on a replay); null once the worker took the message over
   */
  | { ok: true; id: string; status: string | null }
  | Refusal
  /** create threw (the database was unreachable): nothing is known to exist */
  | { ok: false; reason: "failed" };

/**
 * The one spending call of a conversation. The generation (and its hold) is
 * created first, with its submission deferred; only then does the panel turn
 * into the queued status, and only then is the submission enqueued, so the
 * worker's later edits of the same message never race with ours. "Queued" is
 * thus only ever shown for a generation that exists. The key is the panel
 * message, the same on every replay and for every tap on its Confirm: a replay
 * after a crash (the update journal handles the Confirm again) finds the
 * generation instead of creating a second one.
 * `shown` is the price the panel showed: when the price table changed since
 * (a restart with new prices), nothing is created and the panel shows the new
 * price. When creating fails, the panel comes back (same message, same key).
 * The options of a created request become the user's remembered ones, unless
 * `remember` is false (an action on a result, not a choice of the user's).
 */
export async function confirmRequest(
  conversation: Conv,
  screen: Screen,
  deps: ConfirmDeps,
  who: Requester,
  params: GenerationParamsInput,
  shown: PriceQuote,
  remember = true,
): Promise<SubmitOutcome> {
  const { t } = screen;
  const panelId = screen.messageId;
  if (panelId === undefined) throw new Error("confirmRequest: no panel message to confirm");
  // a panel that showed no price never charges one (the table may have one by now)
  if (!shown.ok) {
    await screen.close(refusalText(t, { ok: false, reason: "no_price" }));
    screen.detach();
    return "stay";
  }
  const ahead = await conversation.external(() => deps.generations.waitingCount());
  const usual = await conversation.external(() => deps.generations.usualDuration(params));
  const status = queuedText(t, ahead, usual);
  await screen.chatAction("typing");
  const result = await conversation.external(async (outer): Promise<Created> => {
    faultPoint("confirm:before-create");
    let r: CreateResult;
    try {
      r = await deps.generations.create({
        key: `conv-${who.chatId}-${panelId}`,
        userId: who.userId,
        language: who.language,
        chat: {
          chatId: who.chatId,
          threadId: who.threadId,
          replyToMessageId: who.replyTo,
          statusMessageId: panelId,
        },
        params,
        expectedPrice: shown.credits,
        statusShown: status,
        deferSubmit: true,
      });
    } catch (err) {
      outer.logger.error({ err, userId: who.userId }, "could not create the generation");
      return { ok: false, reason: "failed" };
    }
    if (!r.ok) return r;
    faultPoint("confirm:after-create");
    const g = r.generation;
    return { ok: true, id: g.id, status: g.state === "queued" ? (g.statusShown ?? status) : null };
  });
  if (result.ok) {
    if (result.status !== null) await screen.show(result.status, undefined);
    await conversation.external(() => deps.generations.enqueueSubmit(result.id));
    if (remember) await rememberConfirmed(conversation, deps, who.userId, params);
    return "done";
  }
  if (result.reason === "failed") return { note: t("error-generic") };
  if (result.reason === "price_changed") return { note: refusalText(t, result) };
  if (result.reason === "refused_prompt") {
    // the same prompt would be refused again: the request ends here, and a new one starts afresh
    await screen.close(refusalText(t, result));
    return "done";
  }
  if (result.reason === "banned") {
    await screen.close(refusalText(t, result));
    screen.detach();
    return "stay";
  }
  if (result.reason === "insufficient" && audienceOfChatId(who.chatId) === "group") {
    // the group reads a neutral line; the numbers and the packs go to the member's private chat
    const bot = await conversation.external(async (outer) => {
      const mine = privateWords(outer);
      await sendPrivately(outer.api, who.userId, [
        { text: refusalText(mine, result), reply_markup: buyKeyboard(mine) },
      ]);
      return outer.me.username;
    });
    await screen.show(refusalText(t, result), openPrivateChat(t, bot, "topup"));
    screen.detach();
    return "stay";
  }
  // where credits ran short, the way to buy them
  await screen.show(refusalText(t, result), result.reason === "insufficient" ? buyKeyboard(t) : undefined);
  screen.detach();
  return "stay";
}
