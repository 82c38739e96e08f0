import { defaultImageOptions } from "../../domain/generations/image-options";
import type { DubInputRules } from "../../domain/generations/inputs";
import { type GenerationParamsInput, promptMaxLength, upscalePrompt } from "../../domain/generations/params";
import { defaultVideoOptions } from "../../domain/generations/video-options";
import type { Logger } from "../../platform/lib/logger";
import { defaultDubTarget, type Operation, operations } from "../../platform/media-service/catalog";
import {
  dubLanguagesOfStored,
  imageOptionsOfStored,
  type Preferences,
  rememberedOf,
  type StoredOptions,
  videoOptionsOfStored,
} from "../preferences";
import type { ComposerResponse } from "./contract";

export interface RememberedDeps {
  preferences: Pick<Preferences, "all" | "remember">;
  logger: Logger;
  /** the longest dubbing source, as in the chat */
  dubRules: Pick<DubInputRules, "maxSeconds">;
}

/**
 * Where the composer starts: each operation's remembered options (the ones
 * /settings shows), read through the chat's own readers, else the chat's
 * defaults. A database hiccup is no reason to fail the page: it starts from
 * the defaults, as the chat's panels do.
 */
export async function composerStart(
  deps: RememberedDeps,
  userId: number,
  language: string,
): Promise<Omit<ComposerResponse, "draft">> {
  let stored: Partial<Record<Operation, StoredOptions>> = {};
  try {
    stored = await deps.preferences.all(userId);
  } catch (err) {
    deps.logger.warn({ err, userId }, "mini app: remembered options unreadable, defaults used");
  }
  const fallbackTarget = defaultDubTarget(language);
  const image = imageOptionsOfStored(stored.image);
  const edit = imageOptionsOfStored(stored.edit);
  const video = videoOptionsOfStored(stored.video);
  const dub = dubLanguagesOfStored(stored.dub, fallbackTarget);
  const found = { image, edit, video, dub };
  const dubStart = dub ?? { target: fallbackTarget, source: "auto" };
  return {
    start: {
      image: image ?? defaultImageOptions(),
      edit: edit ?? defaultImageOptions(),
      video: video ?? defaultVideoOptions(),
      dub: { targetLanguage: dubStart.target, sourceLanguage: dubStart.source },
    },
    remembered: operations.filter((o) => found[o] !== undefined),
    promptMaxLength,
    dubMaxMinutes: Math.floor(deps.dubRules.maxSeconds / 60),
  };
}

/**
 * Keeps a confirmed request's options as the user's defaults, as the chat's
 * confirm does (a 4K version is the action's choice, not the user's: not kept).
 * A failure is only logged: the request is made either way.
 */
export async function rememberConfirmed(
  deps: RememberedDeps,
  userId: number,
  params: GenerationParamsInput,
): Promise<void> {
  if (params.operation === "edit" && params.prompt === upscalePrompt) return;
  const { operation, options } = rememberedOf(params);
  try {
    await deps.preferences.remember(userId, operation, options);
  } catch (err) {
    deps.logger.warn({ err, userId, operation }, "mini app: confirmed options not remembered");
  }
}
