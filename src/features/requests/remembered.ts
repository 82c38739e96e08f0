import type { Conv } from "../../bot/conversations/screen";
import type { GenerationParamsInput } from "../../domain/generations/params";
import type { Translate } from "../../platform/i18n/i18n";
import type { Operation } from "../../platform/media-service/catalog";
import type { Preferences, StoredOptions } from "../preferences";
import { rememberedOf } from "../preferences";

export interface RememberedDeps {
  /** each user's last confirmed options per operation (absent: nothing is remembered) */
  preferences?: Pick<Preferences, "get" | "remember">;
}

/**
 * The user's remembered options for `operation`, read once (replays read the
 * recorded answer). A database hiccup is no reason to stop the request: the
 * conversation starts from the defaults, and the failure is logged.
 */
export async function readRemembered(
  conversation: Conv,
  deps: RememberedDeps,
  userId: number,
  operation: Operation,
): Promise<StoredOptions | undefined> {
  const { preferences } = deps;
  if (!preferences) return undefined;
  const stored = await conversation.external(async (outer): Promise<StoredOptions | null> => {
    try {
      return (await preferences.get(userId, operation)) ?? null;
    } catch (err) {
      outer.logger.warn({ err, userId, operation }, "remembered options unreadable: defaults used");
      return null;
    }
  });
  return stored ?? undefined;
}

/** Keeps the options of a confirmed request as the user's defaults (an upsert: a replay repeats it harmlessly). */
export async function rememberConfirmed(
  conversation: Conv,
  deps: RememberedDeps,
  userId: number,
  params: GenerationParamsInput,
): Promise<void> {
  const { preferences } = deps;
  if (!preferences) return;
  const { operation, options } = rememberedOf(params);
  await conversation.external(async (outer) => {
    try {
      await preferences.remember(userId, operation, options);
    } catch (err) {
      outer.logger.warn({ err, userId, operation }, "confirmed options not remembered");
    }
  });
}

/** The panel line saying the options are the user's remembered ones; empty when they are not. */
export function rememberedLines(t: Translate, remembered: boolean): string[] {
  return remembered ? [t("pref-saved-line")] : [];
}
