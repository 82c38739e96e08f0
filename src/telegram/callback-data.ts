import { z } from "zod";
import { languageSchema } from "../users/language";

/**
 * Every button payload (callback data) the bot makes, one schema per prefix.
 * Telegram returns the data of a pressed button as the client sends it, so it
 * is input like any other: handlers read it only through `parse`, which gives
 * undefined for anything the bot could not have made (then the press gets the
 * "menu no longer active" answer). Data is at most 64 bytes.
 */
export interface CallbackKind<T> {
  readonly prefix: string;
  /** matches every press of this kind, valid or not, for `bot.callbackQuery` */
  readonly pattern: RegExp;
  make(value: T): string;
  parse(data: string | undefined): T | undefined;
}

const maxBytes = 64;

function callbackKind<T>(
  prefix: string,
  payload: z.ZodType<T>,
  encode: (value: T) => string,
): CallbackKind<T> {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    prefix,
    pattern: new RegExp(`^${escaped}`),
    make(value) {
      const data = `${prefix}${encode(value)}`;
      if (Buffer.byteLength(data) > maxBytes)
        throw new Error(`callback data over ${maxBytes} bytes: ${data}`);
      return data;
    },
    parse(data) {
      if (data === undefined || !data.startsWith(prefix) || Buffer.byteLength(data) > maxBytes)
        return undefined;
      const parsed = payload.safeParse(data.slice(prefix.length));
      return parsed.success ? parsed.data : undefined;
    },
  };
}

/** A generation (or broadcast) id as Postgres stores it: a canonical lower-case uuid. */
const generationId = z.uuid().regex(/^[0-9a-f-]+$/);

/** Under a delivered result: make it again with the same settings. */
export const regenerateData = callbackKind("rg:", generationId, (id) => id);
/** Under a delivered result: edit the picture. */
export const editResultData = callbackKind("ed:", generationId, (id) => id);
/** In /history: send a result again. */
export const historyShowData = callbackKind("hs:", generationId, (id) => id);
/** /language: the language chosen. */
export const languageData = callbackKind("language:", languageSchema, (language) => language);
/** Under a running broadcast's progress message: stop it. */
export const stopBroadcastData = callbackKind("bcstop:", generationId, (id) => id);
