/**
 * The operator's refused words and patterns, and whether a prompt matches one.
 *
 * A rule is a word or a few words, matched whole (not inside a longer word), in
 * any case; `*` in it stands for any letters, so `nud*` matches "nude" and
 * "nudity". Prompt and rule are read the same way first: Unicode compatibility
 * forms folded, lower case, the Arabic forms of Persian letters (ي, ك) as the
 * Persian ones, and what shows nothing (format characters such as the
 * zero-width non-joiner and the soft hyphen, combining marks such as Arabic
 * vowel signs, the tatweel) taken out, so "می‌خواهم" and "میخواهم" are one word.
 */

/** The longest rule, in characters. */
export const maxRuleLength = 64;

const wordChars = /[\p{L}\p{N}\p{M}]+/gu;

function normalize(text: string): string {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[يى]/g, "ی")
      .replace(/ك/g, "ک")
      // format characters (zero-width space, joiners, soft hyphen…), combining marks (Arabic vowel signs) and the tatweel show nothing a rule could miss
      .replace(/[\p{Cf}\p{Mn}\u0640]/gu, "")
  );
}

/** The words of a text, as rules read them. */
const wordsOf = (text: string): string[] => normalize(text).match(wordChars) ?? [];

/** The rule as kept and matched (normalized, one space between its words); undefined when it cannot be one. */
export function ruleOf(text: string): string | undefined {
  const rule = normalize(text).trim().replace(/\s+/g, " ");
  if (rule.length === 0 || rule.length > maxRuleLength) return undefined;
  // words of letters and digits, `*` among them: at least one letter or digit in each word
  const words = rule.split(" ");
  const isWord = (w: string) => /^[\p{L}\p{N}\p{M}*]+$/u.test(w) && /[\p{L}\p{N}]/u.test(w);
  return words.every(isWord) ? rule : undefined;
}

/**
 * Whether `word` matches `glob` (`*`: any run of letters, none included), in
 * time proportional to their lengths' product at most: no regular expression
 * a rule could make slow.
 */
function globMatches(glob: string, word: string): boolean {
  let g = 0;
  let w = 0;
  let star = -1;
  let resume = 0;
  while (w < word.length) {
    if (g < glob.length && glob[g] !== "*" && glob[g] === word[w]) {
      g++;
      w++;
    } else if (g < glob.length && glob[g] === "*") {
      star = g++;
      resume = w;
    } else if (star >= 0) {
      g = star + 1;
      w = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}

/** A matcher for these rules (texts that are not rules are left out): the first rule a prompt matches, or undefined. */
export function promptScreen(rules: readonly string[]): (prompt: string) => string | undefined {
  const compiled = rules.flatMap((text) => {
    const rule = ruleOf(text);
    return rule ? [{ rule, globs: rule.split(" ") }] : [];
  });
  return (prompt) => {
    if (compiled.length === 0) return undefined;
    const words = wordsOf(prompt);
    for (const { rule, globs } of compiled) {
      for (let i = 0; i + globs.length <= words.length; i++) {
        if (globs.every((glob, j) => globMatches(glob, words[i + j]!))) return rule;
      }
    }
    return undefined;
  };
}
