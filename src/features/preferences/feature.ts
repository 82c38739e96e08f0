import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import { negotiateLanguage } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import {
  defaultDubTarget,
  imageModelInfo,
  type Operation,
  operations,
} from "../../platform/media-service/catalog";
import { settingsResetData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { dubLanguagesOfStored, imageOptionsOfStored, videoOptionsOfStored } from "./options";
import type { Preferences, StoredOptions } from "./store";

/** Commands of this feature, for the command menu (each has a `cmd-<name>` description). */
export const settingsCommands = ["settings"] as const;

export interface SettingsDeps {
  preferences: Pick<Preferences, "all" | "forget">;
}

type Remembered = Partial<Record<Operation, StoredOptions>>;
type T = BotContext["t"];

/**
 * One operation's remembered options in plain words, as the next panel will
 * use them (read through the same readers, so a stale value shows as its
 * default); undefined when nothing usable is kept.
 */
function describe(t: T, language: Language, operation: Operation, stored: unknown): string | undefined {
  const onOff = (on: boolean) => t(on ? "cv-on" : "cv-off");
  const languageName = (code: string) => (code === "auto" ? t("cv-lang-auto") : t(`dub-lang-${code}`));
  switch (operation) {
    case "image":
    case "edit": {
      const o = imageOptionsOfStored(stored);
      if (!o) return undefined;
      const parts: string[] = [o.model, o.imageSize];
      if (o.resolution && imageModelInfo[o.model].qualities.length > 1) parts.push(o.resolution);
      parts.push(t("settings-count", { count: o.numImages }));
      return t(`settings-${operation}`, { value: parts.join(" · ") });
    }
    case "video": {
      const o = videoOptionsOfStored(stored);
      if (!o) return undefined;
      const parts = [
        o.model,
        t("cv-seconds", { value: o.duration }),
        o.resolution,
        o.aspectRatio === "auto" ? t("cv-aspect-auto") : o.aspectRatio,
        t("settings-sound", { value: onOff(o.generateAudio) }),
      ];
      return t("settings-video", { value: parts.join(" · ") });
    }
    case "dub": {
      const o = dubLanguagesOfStored(stored, defaultDubTarget(language));
      if (!o) return undefined;
      const value = t("settings-languages", {
        target: languageName(o.target),
        source: languageName(o.source),
      });
      return t("settings-dub", { value });
    }
  }
}

/** The /settings screen: what is remembered, a reset button per operation and one for all. */
function settingsView(ctx: BotContext, remembered: Remembered): { text: string; keyboard: InlineKeyboard } {
  const t = ctx.t.bind(ctx);
  const language = negotiateLanguage(ctx);
  const lines = operations
    .map((operation) => ({ operation, line: describe(t, language, operation, remembered[operation]) }))
    .filter((l): l is { operation: (typeof operations)[number]; line: string } => l.line !== undefined);
  const keyboard = new InlineKeyboard();
  if (lines.length === 0) return { text: t("settings-empty"), keyboard };
  for (const [i, { operation }] of lines.entries()) {
    if (i > 0 && i % 2 === 0) keyboard.row();
    keyboard.text(t(`settings-btn-${operation}`), settingsResetData.make(operation));
  }
  keyboard.row().text(t("settings-btn-all"), settingsResetData.make("all"));
  const text = [t("settings-title"), t("settings-intro"), "", ...lines.map((l) => l.line)].join("\n");
  return { text, keyboard };
}

/**
 * /settings (private chats): the options each operation starts from, as
 * remembered from the user's last confirmed request, with buttons to forget
 * them; the message is edited in place.
 */
export function settingsFeature(deps: SettingsDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.command("settings", async (ctx) => {
    const { text, keyboard } = settingsView(ctx, await deps.preferences.all(ctx.from.id));
    await ctx.reply(text, { reply_markup: keyboard });
  });

  privateChats.callbackQuery(settingsResetData.pattern, async (ctx) => {
    const choice = settingsResetData.parse(ctx.callbackQuery.data);
    if (choice === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    await deps.preferences.forget(ctx.from.id, choice === "all" ? undefined : choice);
    await ctx.answerCallbackQuery({ text: ctx.t("settings-reset-done") });
    const { text, keyboard } = settingsView(ctx, await deps.preferences.all(ctx.from.id));
    // a second press shows what is already shown: Telegram says "not modified"
    await ctx.editMessageText(text, { reply_markup: keyboard }).catch((err: unknown) => {
      if (!isTelegramFailure(err, "not-modified", "message-gone")) throw err;
    });
  });

  // the settings are personal: a group is told where to find them
  feature
    .chatType(["group", "supergroup"])
    .command("settings", (ctx) => ctx.reply(ctx.t("settings-private-only")));

  return feature;
}
