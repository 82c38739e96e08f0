import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../../bot/context";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Operation } from "../../platform/media-service/catalog";
import {
  editResultData,
  panelPrefix,
  regenerateData,
  upscaleResultData,
} from "../../platform/telegram/callback-data";
import { isGroupChat } from "../../platform/telegram/chat-kind";
import { captionCommand } from "../requests";
import { type AdminCheck, senderIsGroupAdmin } from "./admins";
import { type GroupSettings, groupOperations } from "./settings";

export interface GroupGuardDeps {
  settings: GroupSettings;
  admins: AdminCheck;
  generations: Pick<GenerationReads, "get" | "paramsOf">;
}

/** What a group update asks for: a new request of an operation, or the next step of one already open. */
interface Wanted {
  operation: Operation;
  /** the update goes on with a conversation that is open (a panel press, an answer) */
  open: boolean;
}

const isOperation = (name: string): name is Operation =>
  (groupOperations as readonly string[]).includes(name);

/** `/image …` and the like as grammY matches them (case as typed), addressed to this bot or to none. */
function commandOf(text: string | undefined, botUsername: string): Operation | undefined {
  const m = /^\/([a-z]+)(?:@(\w+))?(?:\s|$)/.exec(text ?? "");
  if (!m || !isOperation(m[1]!)) return undefined;
  if (m[2] && m[2].toLowerCase() !== botUsername.toLowerCase()) return undefined;
  return m[1];
}

function openOperation(ctx: BotContext): Operation | undefined {
  return Object.keys(ctx.conversation.active()).find(isOperation);
}

async function wanted(
  ctx: BotContext,
  generations: GroupGuardDeps["generations"],
): Promise<Wanted | undefined> {
  const message = ctx.message;
  if (message) {
    const command =
      commandOf(message.text, ctx.me.username) ?? captionCommand(message.caption, ctx.me.username)?.name;
    if (command) return { operation: command, open: false };
    // a command the bot does not know, an answer to a question: it goes to the open conversation
    const open = openOperation(ctx);
    return open ? { operation: open, open: true } : undefined;
  }
  const data = ctx.callbackQuery?.data;
  if (data === undefined) return undefined;
  // editing a result, or its 4K version (an edit with a multi-quality model)
  if (editResultData.parse(data) !== undefined || upscaleResultData.parse(data) !== undefined)
    return { operation: "edit", open: false };
  const again = regenerateData.parse(data);
  if (again !== undefined) {
    const g = await generations.get(again);
    // someone else's result or a vanished one: the button's own handler answers it
    if (!g || g.userId !== ctx.from?.id) return undefined;
    return { operation: generations.paramsOf(g).operation, open: false };
  }
  if (data.startsWith(panelPrefix)) {
    const open = openOperation(ctx);
    return open ? { operation: open, open: true } : undefined;
  }
  return undefined;
}

/**
 * What a group's admins decided, enforced before any request starts or goes
 * on: an operation they switched off is refused, and so is everyone but the
 * admins when the group is for admins only. The refusal says why, in the
 * member's language; nothing is held. A conversation opened before the change
 * is left at its next step, so its Confirm cannot spend. Install after the
 * group settings screen and before the conversations and anything that
 * starts a request (a press under a result).
 */
export function groupPolicyGuard(deps: GroupGuardDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const chat = ctx.chat;
    if (!chat || !isGroupChat(chat) || !ctx.from) return next();
    const want = await wanted(ctx, deps.generations);
    if (!want) return next();
    const policy = await deps.settings.get(chat.id);
    let refusal: string | undefined;
    if (policy.access === "admins" && !(await senderIsGroupAdmin(ctx, deps.admins))) {
      refusal = ctx.t("group-admins-only");
    } else if (policy.disabled.has(want.operation)) {
      refusal = ctx.t("group-operation-off", { operation: ctx.t(`op-${want.operation}`) });
    }
    if (refusal === undefined) return next();

    ctx.logger.info(
      { chatId: chat.id, userId: ctx.from.id, operation: want.operation, access: policy.access },
      "group request refused by the group's settings",
    );
    if (want.open) await ctx.conversation.exit(want.operation);
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: refusal, show_alert: true });
    } else if (ctx.message) {
      await ctx.reply(refusal, {
        reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true },
      });
    }
  };
}
