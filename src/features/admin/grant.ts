import { type Composer, InlineKeyboard } from "grammy";
import { z } from "zod";
import type { BotContext } from "../../bot/context";
import type { Ledger } from "../../domain/credits/ledger";
import { userLabel } from "../../domain/users/user-label";
import type { UserRecord, Users } from "../../domain/users/users";
import { argumentsOf, asciiDigits } from "../../platform/lib/command-words";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import { tellGrantRecipient } from "./grant-notice";
import type { ConfirmOutcome, GrantStore } from "./grant-store";
import { explainTarget, findTarget } from "./target";

/** The most one /grant may move either way: a typo of a few zeros is refused, not applied. */
export const maxGrant = 1_000_000;
const maxReason = 200;

export type GrantParse =
  | { ok: true; target: string | undefined; amount: number; reason: string | undefined }
  | { ok: false; problem: "usage" | "amount" | "zero" | "too-large" | "reason-required" | "reason-too-long" };

/**
 * `/grant <user> <credits> [reason]`, or `/grant <credits> [reason]` in reply
 * to a forwarded message (`replied`: its sender is the user): a negative
 * amount needs a reason.
 */
export function parseGrant(words: readonly string[], replied = false): GrantParse {
  const [target, rawAmount, ...rest] = replied ? [undefined, ...words] : words;
  if ((target === undefined && !replied) || rawAmount === undefined) return { ok: false, problem: "usage" };
  const amountText = asciiDigits(rawAmount).replace(/^\u2212/, "-");
  if (!/^[+-]?\d{1,16}$/.test(amountText)) return { ok: false, problem: "amount" };
  const amount = Number(amountText);
  if (amount === 0) return { ok: false, problem: "zero" };
  if (Math.abs(amount) > maxGrant) return { ok: false, problem: "too-large" };
  const reason = rest.join(" ").trim() || undefined;
  if (amount < 0 && reason === undefined) return { ok: false, problem: "reason-required" };
  if (reason !== undefined && reason.length > maxReason) return { ok: false, problem: "reason-too-long" };
  return { ok: true, target, amount, reason };
}

/** The Confirm / Cancel buttons of a /grant: the command's message id and the choice (≤ 64 bytes). */
const grantButton = z
  .string()
  .regex(/^ag:(\d{1,12}):([yn])$/)
  .transform((data) => {
    const [, id, choice] = /^ag:(\d{1,12}):([yn])$/.exec(data) ?? [];
    return { messageId: Number(id), confirm: choice === "y" };
  });
const grantButtonPattern = /^ag:/;

export interface GrantDeps {
  users: Pick<Users, "get" | "findByUsername" | "findByName" | "reachablePrivately" | "markBlocked">;
  ledger: Pick<Ledger, "account">;
  store: GrantStore;
}

function outcomeText(ctx: BotContext, outcome: ConfirmOutcome, label: string): string {
  switch (outcome.kind) {
    case "done":
      if (outcome.moved >= 0) {
        return ctx.t("grant-done-added", {
          user: label,
          credits: outcome.moved,
          available: outcome.available,
        });
      }
      return outcome.notTaken > 0
        ? ctx.t("grant-done-partly", {
            user: label,
            credits: -outcome.moved,
            missing: outcome.notTaken,
            available: outcome.available,
          })
        : ctx.t("grant-done-taken", { user: label, credits: -outcome.moved, available: outcome.available });
    case "already":
      return ctx.t("grant-already");
    case "cancelled":
      return ctx.t("grant-cancelled");
    case "missing":
      return ctx.t("grant-missing");
  }
}

/** /grant in an admin's private chat, and its Confirm / Cancel buttons. */
export function registerGrant(admins: Composer<BotContext>, deps: GrantDeps): void {
  admins.chatType("private").command("grant", async (ctx) => {
    const replied = ctx.msg.reply_to_message;
    const parsed = parseGrant(argumentsOf(ctx), replied?.forward_origin !== undefined);
    if (!parsed.ok) {
      await ctx.reply(
        `${ctx.t(`grant-problem-${parsed.problem}`, { max: maxGrant })}\n${ctx.t("grant-usage")}`,
      );
      return;
    }
    const found = await findTarget(deps.users, parsed.target, replied);
    if (!found.ok) {
      await ctx.reply(explainTarget(ctx.t, found, "grant-usage"));
      return;
    }
    const user = found.user;
    const messageId = ctx.msg.message_id;
    await deps.store.propose(ctx.chat.id, messageId, {
      adminId: ctx.from.id,
      targetId: user.id,
      amount: parsed.amount,
      reason: parsed.reason ?? null,
    });
    const { available } = await deps.ledger.account(user.id);
    const vars = { user: userLabel(user), credits: Math.abs(parsed.amount), available };
    const question =
      parsed.amount > 0
        ? ctx.t("grant-ask-add", vars)
        : -parsed.amount > available
          ? ctx.t("grant-ask-take-partly", vars)
          : ctx.t("grant-ask-take", vars);
    const reason = parsed.reason ? `\n${ctx.t("grant-reason", { reason: parsed.reason })}` : "";
    await ctx.reply(`${question}${reason}`, {
      reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
      reply_markup: new InlineKeyboard()
        .text(ctx.t("grant-btn-confirm"), `ag:${messageId}:y`)
        .text(ctx.t("grant-btn-cancel"), `ag:${messageId}:n`),
    });
  });

  admins.callbackQuery(grantButtonPattern, async (ctx) => {
    const button = grantButton.safeParse(ctx.callbackQuery.data);
    const chatId = ctx.callbackQuery.message?.chat.id;
    if (!button.success || chatId === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("grant-missing") });
      return;
    }
    const { messageId, confirm } = button.data;
    const outcome = confirm
      ? await deps.store.confirm(chatId, messageId, ctx.from.id)
      : await deps.store.cancel(chatId, messageId, ctx.from.id);
    let label = "";
    let user: UserRecord | undefined;
    if (outcome.kind === "done") {
      user = await deps.users.get(outcome.grant.targetId);
      label = user ? userLabel(user) : String(outcome.grant.targetId);
      ctx.logger.info(
        {
          adminId: ctx.from.id,
          userId: outcome.grant.targetId,
          asked: outcome.grant.amount,
          moved: outcome.moved,
          notTaken: outcome.notTaken,
        },
        "admin grant applied",
      );
    }
    const text = outcomeText(ctx, outcome, label);
    await ctx.answerCallbackQuery({ text: text.slice(0, 200) });
    let told = "";
    if (outcome.kind === "done" && user && outcome.moved !== 0) {
      const notified = await tellGrantRecipient(
        { api: ctx.api, users: deps.users, logger: ctx.logger },
        user,
        outcome.moved,
        outcome.available,
      );
      told = `\n${ctx.t(notified ? "grant-told" : "grant-not-told")}`;
    }
    // the question turns into its outcome; a repeated tap leaves it as the first tap made it
    if (outcome.kind === "done" || (outcome.kind === "cancelled" && confirm === false)) {
      await ctx.editMessageText(`${text}${told}`).catch((err: unknown) => {
        // the question may be gone or too old to edit: the toast said it already
        if (!classifyTelegramError(err)) throw err;
      });
    }
  });
}
