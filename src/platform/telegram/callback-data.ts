import { z } from "zod";
import { languageSchema } from "../i18n/language";
import { type Operation, operations } from "../media-service/catalog";

/**
 * Every button payload (callback data) the bot makes, one schema per prefix.
 * Telegram returns the data of a pressed button as the client sends it, so it
 * is input like any other: handlers read it only through `parse`, which gives
 * undefined for anything the bot could not have made (then the press gets the
 * "menu no longer active" answer). Data is at most 64 bytes. The buttons of
 * conversation panels (`cv:`) are at the end.
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

/** Under a delivered picture: a 4K version of picture `picture` (0-based) of the result, priced first. */
export interface UpscalePress {
  id: string;
  picture: number;
}
const upscalePress: z.ZodType<UpscalePress> = z
  .templateLiteral([z.string(), ":", z.enum(["0", "1", "2", "3"])])
  .transform((s) => ({
    id: s.slice(0, s.lastIndexOf(":")),
    picture: Number(s.slice(s.lastIndexOf(":") + 1)),
  }))
  .pipe(z.object({ id: generationId, picture: z.number().int().min(0).max(3) }));
export const upscaleResultData = callbackKind("up:", upscalePress, (p) => `${p.id}:${p.picture}`);
/** Under a result in a group: report it to the bot's admins. */
export const reportResultData = callbackKind("rr:", generationId, (id) => id);
/** Under a report, in an admin's chat: what to do about the reported result. */
export interface ReportPress {
  action: "remove" | "refund" | "ban" | "dismiss";
  id: string;
}
const reportPress: z.ZodType<ReportPress> = z
  .templateLiteral([z.enum(["remove", "refund", "ban", "dismiss"]), ":", z.string()])
  .transform((s) => ({ action: s.slice(0, s.indexOf(":")), id: s.slice(s.indexOf(":") + 1) }))
  .pipe(z.object({ action: z.enum(["remove", "refund", "ban", "dismiss"]), id: generationId }));
export const reportActionData = callbackKind("ra:", reportPress, (p) => `${p.action}:${p.id}`);
/** /settings: forget the remembered options of one operation, or of all. */
export const settingsResetData = callbackKind(
  "st:",
  z.enum([...operations, "all"]),
  (operation) => operation,
);

/** /groupsettings: what a press sets (the wanted state, so a repeated press changes nothing more). */
export type GroupSettingChange =
  | { kind: "operation"; operation: Operation; enabled: boolean }
  | { kind: "access"; access: "everyone" | "admins" };
const groupSettingChange: z.ZodType<GroupSettingChange> = z.union([
  z.templateLiteral([z.enum(operations), ":", z.enum(["on", "off"])]).transform((s): GroupSettingChange => {
    const [operation, state] = s.split(":") as [Operation, "on" | "off"];
    return { kind: "operation", operation, enabled: state === "on" };
  }),
  z
    .templateLiteral(["access:", z.enum(["everyone", "admins"])])
    .transform((s): GroupSettingChange => ({ kind: "access", access: s.slice(7) as "everyone" | "admins" })),
]);
export const groupSettingsData = callbackKind("gs:", groupSettingChange, (c) =>
  c.kind === "access" ? `access:${c.access}` : `${c.operation}:${c.enabled ? "on" : "off"}`,
);

/** An inline offer's id: a short hash (base64url) of who asked what at which price. */
const inlineOfferId = z.string().regex(/^[A-Za-z0-9_-]{1,20}$/);
/** On a message placed in inline mode: Confirm the offer (only its placer may). */
export const inlineConfirmData = callbackKind("il:", inlineOfferId, (id) => id);

/** What a button under an offer for something sent without a command does with it. */
export type SentOfferAction = "edit" | "reference" | "dub" | "image" | "video";
const sentOfferActions = { e: "edit", r: "reference", d: "dub", i: "image", v: "video" } as const;
/** Under an offer for a photo, file or text sent without a command: the action, and the sent message's id (its record). */
export interface SentOfferPress {
  action: SentOfferAction;
  messageId: number;
}
const sentOfferPress: z.ZodType<SentOfferPress> = z
  .string()
  .regex(/^[edriv]:[1-9][0-9]{0,14}$/)
  .transform((s) => ({
    action: sentOfferActions[s.slice(0, 1) as keyof typeof sentOfferActions],
    messageId: Number(s.slice(2)),
  }));
/** `so:<first letter of the action>:<message id>` */
export const sentOfferData = callbackKind(
  "so:",
  sentOfferPress,
  (p) => `${p.action.slice(0, 1)}:${p.messageId}`,
);

/** "💳 Buy credits" (where credits ran short): show the packs. */
export const buyMenuData = callbackKind("bm:", z.literal("packs"), () => "packs");
/** /plans: cancel the running plan's renewal, or resume it */
export const planRenewalData = callbackKind("pr:", z.enum(["cancel", "resume"]), (action) => action);
/** /privacy: ask to delete my data, delete it (asked once more), or keep it */
export const privacyData = callbackKind("pv:", z.enum(["ask", "erase", "keep"]), (action) => action);
/** In the packs list: send the invoice of this pack. */
export const buyPackData = callbackKind("bp:", z.string().regex(/^[a-z0-9_-]{1,16}$/), (id) => id);

/**
 * Buttons of a conversation panel. Every one starts with `cv:` so stale
 * buttons of a finished conversation can be recognised and answered.
 * Values are catalog identifiers (model names, ratios, language codes).
 */
export type PanelAction =
  | { kind: "open"; setting: string }
  | { kind: "pick"; value: string }
  | { kind: "page"; page: number }
  | { kind: "toggle"; setting: string }
  | { kind: "confirm" }
  | { kind: "done" }
  | { kind: "back" }
  | { kind: "cancel" }
  | { kind: "noop" };

export const panelPrefix = "cv:";

const token = z.string().regex(/^[A-Za-z0-9._:-]{1,40}$/);

const actionData = z
  .string()
  .max(64)
  .transform((data, ctx): PanelAction => {
    const [tag, ...rest] = data.slice(panelPrefix.length).split(":");
    const arg = rest.join(":");
    if (!data.startsWith(panelPrefix)) {
      ctx.addIssue({ code: "custom", message: "not a panel button" });
      return z.NEVER;
    }
    switch (tag) {
      case "o":
      case "p":
      case "t": {
        if (!token.safeParse(arg).success) break;
        if (tag === "o") return { kind: "open", setting: arg };
        if (tag === "t") return { kind: "toggle", setting: arg };
        return { kind: "pick", value: arg };
      }
      case "g": {
        const page = z.coerce.number().int().min(0).max(99).safeParse(arg);
        if (page.success && arg !== "") return { kind: "page", page: page.data };
        break;
      }
      case "ok":
        return { kind: "confirm" };
      case "d":
        return { kind: "done" };
      case "b":
        return { kind: "back" };
      case "x":
        return { kind: "cancel" };
      case "n":
        return { kind: "noop" };
    }
    ctx.addIssue({ code: "custom", message: `unknown panel button ${data}` });
    return z.NEVER;
  });

export function parsePanelAction(data: string | undefined): PanelAction | undefined {
  if (data === undefined) return undefined;
  const parsed = actionData.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

export const panelData = {
  open: (setting: string) => `${panelPrefix}o:${setting}`,
  pick: (value: string) => `${panelPrefix}p:${value}`,
  page: (page: number) => `${panelPrefix}g:${page}`,
  toggle: (setting: string) => `${panelPrefix}t:${setting}`,
  confirm: () => `${panelPrefix}ok`,
  done: () => `${panelPrefix}d`,
  back: () => `${panelPrefix}b`,
  cancel: () => `${panelPrefix}x`,
  noop: () => `${panelPrefix}n`,
};
