import { z } from "zod";

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
