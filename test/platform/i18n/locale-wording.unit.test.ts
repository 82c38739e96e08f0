import { describe, expect, test } from "vitest";
import { localeSource, translate } from "../../../src/platform/i18n/i18n";

/** Every message of a language's locale files: its id and the variables its text names. */
function messages(source: string): Array<{ id: string; vars: Record<string, string> }> {
  const blocks = source.split(/^(?=[a-z][a-z0-9-]* =)/m).slice(1);
  return blocks.map((block) => ({
    id: /^([a-z][a-z0-9-]*) =/.exec(block)![1]!,
    vars: Object.fromEntries([...block.matchAll(/\$([a-zA-Z][\w-]*)/g)].map((m) => [m[1]!, "x"])),
  }));
}

/** The /commands a text shows (not a link's path: a "/" after a letter, digit, ":" or "/" is not one). */
const commandsIn = (text: string) =>
  [...text.matchAll(/(?<![\p{L}\p{N}_:/.])(.?)(\/[a-z][a-z_]*)(.?)/gu)].map((m) => ({
    before: m[1],
    command: m[2],
    after: m[3],
  }));

describe("a /command in Persian text is isolated, or right to left draws it 'settings/'", () => {
  test("every Persian message wraps each /command in U+2068 … U+2069", () => {
    const unisolated: string[] = [];
    let seen = 0;
    for (const { id, vars } of messages(localeSource("fa"))) {
      const text = translate("fa", id, vars);
      for (const c of commandsIn(text)) {
        seen++;
        if (c.before !== "\u2068" || c.after !== "\u2069") unisolated.push(`${id}: ${c.command}`);
      }
    }
    expect(unisolated).toEqual([]);
    // the rule is checked on real commands: /help, /settings, /buy, … appear in dozens of places
    expect(seen).toBeGreaterThan(20);
  });

  test("the saved-settings line draws /settings whole", () => {
    expect(translate("fa", "pref-saved-line")).toContain("\u2068/settings\u2069");
    // English needs no marks
    expect(translate("en", "pref-saved-line")).toContain(" /settings");
  });
});

describe("counts read as counts", () => {
  test("one picture is '1 image', more are 'images'; Persian keeps its singular noun", () => {
    expect(translate("en", "cv-btn-count", { value: 1 })).toBe("🔢 1 image");
    expect(translate("en", "cv-btn-count", { value: 3 })).toBe("🔢 3 images");
    expect(translate("fa", "cv-btn-count", { value: 1 })).toMatch(/^🔢 \u2068?۱\u2069? تصویر$/);
    expect(translate("fa", "cv-btn-count", { value: 3 })).toMatch(/^🔢 \u2068?۳\u2069? تصویر$/);
  });
});

/** A line's text outside its isolated placeables (U+2068 … U+2069, nested ones too). */
function outsideIsolates(line: string): string {
  let depth = 0;
  let out = "";
  for (const ch of line) {
    if (ch === "\u2068") depth++;
    else if (ch === "\u2069") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

describe("every Persian line reads right to left", () => {
  test("a line of two placeables or more and no letter outside them starts with a right-to-left mark", () => {
    // a client takes a line's direction from its first letter outside isolates: with none, it
    // lays the line out left to right, and "ساخت تصویر «…»" reads backwards
    const leftToRight: string[] = [];
    let marked = 0;
    for (const { id, vars } of messages(localeSource("fa"))) {
      for (const line of translate("fa", id, vars).split("\n")) {
        // one placeable alone takes its direction from its own text
        if ((line.match(/\u2068/g) ?? []).length < 2) continue;
        if (/\p{L}/u.test(outsideIsolates(line))) continue;
        if (line.startsWith("\u200f")) marked++;
        else leftToRight.push(`${id}: ${JSON.stringify(line)}`);
      }
    }
    expect(leftToRight).toEqual([]);
    expect(marked).toBeGreaterThan(5);
  });
});
