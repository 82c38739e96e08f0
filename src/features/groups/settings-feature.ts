import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import type { Users } from "../../domain/users/users";
import { groupAccessModes } from "../../platform/db/schema";
import { type GroupSettingChange, groupSettingsData } from "../../platform/telegram/callback-data";
import { isGroupChat } from "../../platform/telegram/chat-kind";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { type AdminCheck, senderIsGroupAdmin } from "./admins";
import { type GroupPolicy, type GroupSettings, groupOperations } from "./settings";

export interface GroupSettingsDeps {
  settings: GroupSettings;
  admins: AdminCheck;
  users: Pick<Users, "get">;
}

const isGroup = (ctx: BotContext) => isGroupChat(ctx.chat);

/** The settings as text and buttons: each operation's button switches it; the access buttons choose. */
function panel(ctx: BotContext, policy: GroupPolicy) {
  const title = ctx.chat && "title" in ctx.chat ? (ctx.chat.title ?? "") : "";
  const lines = groupOperations.map((operation) =>
    ctx.t(policy.disabled.has(operation) ? "group-settings-line-off" : "group-settings-line-on", {
      operation: ctx.t(`op-${operation}`),
    }),
  );
  const text = [
    ctx.t("group-settings-title", { group: title }),
    "",
    ...lines,
    ctx.t("group-settings-access", { access: ctx.t(`group-access-${policy.access}`) }),
    "",
    ctx.t("group-settings-help"),
  ].join("\n");
  const keyboard = new InlineKeyboard();
  for (const [i, operation] of groupOperations.entries()) {
    const enabled = !policy.disabled.has(operation);
    keyboard.text(
      ctx.t(enabled ? "group-settings-button-on" : "group-settings-button-off", {
        operation: ctx.t(`op-${operation}`),
      }),
      groupSettingsData.make({ kind: "operation", operation, enabled: !enabled }),
    );
    if (i % 2 === 1) keyboard.row();
  }
  for (const access of groupAccessModes) {
    const label = ctx.t(`group-settings-button-${access}`);
    keyboard.text(
      access === policy.access ? `• ${label} •` : label,
      groupSettingsData.make({ kind: "access", access }),
    );
  }
  return { text, reply_markup: keyboard };
}

/** Whoever writes before registration (an anonymous admin, a press) is answered in their saved language. */
async function useSavedLanguage(deps: GroupSettingsDeps, ctx: BotContext): Promise<void> {
  if (ctx.user || !ctx.from || ctx.from.is_bot) return;
  const saved = await deps.users.get(ctx.from.id);
  if (saved) ctx.i18n.useLocale(saved.language);
}

async function openSettings(ctx: BotContext, deps: GroupSettingsDeps): Promise<void> {
  if (!isGroup(ctx) || !ctx.chat) {
    await ctx.reply(ctx.t("group-settings-only-in-groups"));
    return;
  }
  await useSavedLanguage(deps, ctx);
  const reply = ctx.msg
    ? { reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true } }
    : {};
  if (!(await senderIsGroupAdmin(ctx, deps.admins))) {
    ctx.logger.info({ chatId: ctx.chat.id, userId: ctx.from?.id }, "group settings: not an admin");
    await ctx.reply(ctx.t("group-settings-admins-only"), reply);
    return;
  }
  const { text, reply_markup } = panel(ctx, await deps.settings.get(ctx.chat.id));
  await ctx.reply(text, { ...reply, reply_markup });
}

async function change(ctx: BotContext, deps: GroupSettingsDeps, wanted: GroupSettingChange, chatId: number) {
  const by = ctx.from?.id ?? 0;
  return wanted.kind === "access"
    ? deps.settings.setAccess(chatId, wanted.access, by)
    : deps.settings.setOperation(chatId, wanted.operation, wanted.enabled, by);
}

/**
 * /groupsettings: a group's admins switch operations on or off and choose who
 * may use the bot there; the screen's buttons change the settings and edit the
 * screen in place. Anyone else is told only admins can, and nothing changes.
 */
export function groupSettingsFeature(deps: GroupSettingsDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("groupsettings", (ctx) => openSettings(ctx, deps));

  feature.callbackQuery(groupSettingsData.pattern, async (ctx) => {
    const wanted = groupSettingsData.parse(ctx.callbackQuery.data);
    const chatId = ctx.chat?.id;
    if (wanted === undefined || chatId === undefined || !isGroup(ctx)) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    await useSavedLanguage(deps, ctx);
    if (!(await senderIsGroupAdmin(ctx, deps.admins))) {
      ctx.logger.info({ chatId, userId: ctx.from.id }, "group settings press: not an admin");
      await ctx.answerCallbackQuery({ text: ctx.t("group-settings-admins-only") });
      return;
    }
    const policy = await change(ctx, deps, wanted, chatId);
    ctx.logger.info({ chatId, userId: ctx.from.id, change: wanted }, "group settings changed");
    await ctx.answerCallbackQuery({ text: ctx.t("group-settings-saved") });
    const { text, reply_markup } = panel(ctx, policy);
    await ctx.editMessageText(text, { reply_markup }).catch((err: unknown) => {
      // a repeated press shows what is already there; a deleted screen has nothing to show
      if (!isTelegramFailure(err, "not-modified", "message-gone")) throw err;
    });
  });
  return feature;
}

/**
 * /groupsettings sent by an anonymous admin (the group writing as itself):
 * installed before the people-only rule, which refuses every other message
 * without a person behind it.
 */
export function anonymousAdminSettings(deps: GroupSettingsDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature
    .filter((ctx) => isGroup(ctx) && ctx.message?.sender_chat?.id === ctx.chat?.id)
    .command("groupsettings", (ctx) => openSettings(ctx, deps));
  return feature;
}
