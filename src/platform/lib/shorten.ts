/**
 * Cuts `text` to at most `max` UTF-16 code units (Telegram's measure of length),
 * ending with "…" when cut, never inside a character.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  for (const ch of text) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}
