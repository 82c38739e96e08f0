import { asciiDigits } from "../../platform/lib/command-words";

/**
 * What a promo code is, and what `/promo create` takes. A code travels in a
 * /start link (`t.me/<bot>?start=promo-<CODE>`), whose payload Telegram allows
 * up to 64 characters of A–Z, a–z, 0–9, _ and -: a code is 3 to 32 of them,
 * kept in capitals, so "spring25" and "SPRING25" are one code.
 */
const codePattern = /^[A-Z0-9_-]{3,32}$/;
export const promoStartPrefix = "promo-";

/** The most credits one code may give each user, and the most uses: a typo of zeros is refused. */
export const maxPromoCredits = 100_000;
export const maxPromoUses = 1_000_000;
const maxPromoDays = 3_650;

/** The code as stored, or undefined when `text` cannot be one. */
export function promoCodeOf(text: string | undefined): string | undefined {
  const code = text?.trim().toUpperCase();
  return code && codePattern.test(code) ? code : undefined;
}

/** The code in a /start payload (`promo-<CODE>`), if that is what it is. */
export function promoCodeInStart(payload: string): string | undefined {
  return payload.startsWith(promoStartPrefix)
    ? promoCodeOf(payload.slice(promoStartPrefix.length))
    : undefined;
}

export interface NewPromo {
  code: string;
  credits: number;
  maxUses: number;
  /** days until it expires; none: until ended */
  days?: number;
  newUsersOnly: boolean;
}

export type PromoParse = { ok: true; promo: NewPromo } | { ok: false; problem: "usage" | "code" | "number" };

function wholeNumber(text: string | undefined, max: number): number | undefined {
  const digits = text === undefined ? "" : asciiDigits(text);
  if (!/^\d{1,9}$/.test(digits)) return undefined;
  const n = Number(digits);
  return n >= 1 && n <= max ? n : undefined;
}

/**
 * `/promo create <CODE> <credits> <uses> [<days>d] [new]`: the words after
 * "create". `new` makes it for users first seen after it was made.
 */
export function parseNewPromo(words: readonly string[]): PromoParse {
  const [rawCode, rawCredits, rawUses, ...rest] = words;
  if (rawCode === undefined || rawCredits === undefined || rawUses === undefined || rest.length > 2)
    return { ok: false, problem: "usage" };
  const code = promoCodeOf(rawCode);
  if (!code) return { ok: false, problem: "code" };
  const credits = wholeNumber(rawCredits, maxPromoCredits);
  const maxUses = wholeNumber(rawUses, maxPromoUses);
  if (credits === undefined || maxUses === undefined) return { ok: false, problem: "number" };
  let days: number | undefined;
  let newUsersOnly = false;
  for (const word of rest) {
    const lower = asciiDigits(word).toLowerCase();
    if (lower === "new" && !newUsersOnly) newUsersOnly = true;
    else if (/^\d+d$/.test(lower) && days === undefined) {
      days = wholeNumber(lower.slice(0, -1), maxPromoDays);
      if (days === undefined) return { ok: false, problem: "number" };
    } else return { ok: false, problem: "usage" };
  }
  return { ok: true, promo: { code, credits, maxUses, ...(days ? { days } : {}), newUsersOnly } };
}
