import type { Update } from "grammy/types";

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what Postgres refuses
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Postgres text and jsonb hold neither NUL nor half of a surrogate pair. */
function storableText(value: string): string {
  return value.replace(unstorable, "\uFFFD");
}

/**
 * The update as the bot keeps and handles it: every string made storable
 * (U+FFFD in place of a NUL or a lone surrogate), so that one odd message can
 * neither stop the journal, which would stall polling for every chat, nor
 * fail later where a conversation saves its state.
 */
export function cleanUpdate(update: Update): Update {
  const text = JSON.stringify(update);
  if (!/\\u0000|\\ud[89a-f]/i.test(text)) return update;
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "string" ? storableText(value) : value,
  ) as Update;
}
