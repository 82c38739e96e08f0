/** Telegram's limit for one text message, in UTF-16 code units (what its clients count). */
export const messageLimit = 4096;

/**
 * What Telegram's clients do with a text over the limit: several messages,
 * each within it, cut at the last whitespace of the last fifth before the
 * limit (a word is cut only when there is none), never inside a surrogate pair.
 */
export function splitLongText(text: string, limit = messageLimit): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = -1;
    for (let i = limit; i > limit * 0.8; i--) {
      if (/\s/.test(window[i] ?? "")) {
        cut = i;
        break;
      }
    }
    if (cut === -1) cut = /[\uD800-\uDBFF]/.test(rest[limit - 1] ?? "") ? limit - 1 : limit;
    const part = rest.slice(0, cut).trimEnd();
    if (part !== "") parts.push(part);
    rest = rest.slice(cut).trimStart();
  }
  if (rest.trim() !== "") parts.push(rest);
  return parts;
}
