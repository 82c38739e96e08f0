/** Persian and Arabic-Indic digits typed on a phone keyboard, read as ASCII digits. */
export function asciiDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/** The words after a command, split on whitespace. */
export function argumentsOf(ctx: { match: string | RegExpMatchArray }): string[] {
  const text = typeof ctx.match === "string" ? ctx.match : "";
  return text.trim() === "" ? [] : text.trim().split(/\s+/);
}
