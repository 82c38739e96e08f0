/**
 * Characters that show nothing on their own: whitespace and separators,
 * format characters (zero-width space and joiners, direction marks, the BOM:
 * Unicode category Cf), controls, combining marks with nothing to combine
 * with, and the blank letters fonts draw empty (Hangul fillers, braille blank).
 * `String.prototype.trim` removes only the first group.
 */
const invisible = /[\s\p{Z}\p{Cf}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu;

/** `text` without anything invisible: what a reader would actually see. */
export function visibleText(text: string): string {
  return text.replace(invisible, "");
}

export function hasVisibleCharacter(text: string): boolean {
  return visibleText(text).length > 0;
}
