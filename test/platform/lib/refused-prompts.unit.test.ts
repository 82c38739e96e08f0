import { describe, expect, test } from "vitest";
import { maxRuleLength, promptScreen, ruleOf } from "../../../src/platform/lib/refused-prompts";

describe("the operator's refused words and patterns", () => {
  test("a rule is words of letters and digits, `*` among them; anything else is no rule", () => {
    expect(ruleOf("  Gore  ")).toBe("gore");
    expect(ruleOf("Blood   Bath")).toBe("blood bath");
    expect(ruleOf("nud*")).toBe("nud*");
    expect(ruleOf("خشونت")).toBe("خشونت");
    expect(ruleOf("كشتن")).toBe("کشتن"); // the Arabic kaf read as the Persian one
    for (const bad of ["", "   ", "*", "a.b", "(x)", "a|b", "x".repeat(maxRuleLength + 1), "* *"])
      expect(ruleOf(bad), bad).toBeUndefined();
  });

  test("whole words in any case, in English and Persian; `*` for any letters; phrases across punctuation", () => {
    const screen = promptScreen(["gore", "nud*", "blood bath", "خشونت", "*کشی", "می‌خواهم بکشم"]);
    expect(screen("A scene full of GORE, please")).toBe("gore");
    expect(screen("gorey details")).toBeUndefined(); // not a whole word
    expect(screen("Gorgeous sunset")).toBeUndefined();
    expect(screen("nude figure")).toBe("nud*");
    expect(screen("a study in nudity")).toBe("nud*");
    expect(screen("a nudge")).toBe("nud*"); // a pattern takes what it says: any word that starts so
    expect(screen("denuded")).toBeUndefined();
    expect(screen("a blood-bath at dawn")).toBe("blood bath");
    expect(screen("blood, bath")).toBe("blood bath");
    expect(screen("a bath of blood")).toBeUndefined();
    expect(screen("تصویری پر از خشونت")).toBe("خشونت");
    expect(screen("صحنهٔ آدم‌کشی")).toBe("*کشی"); // the joiner taken out: "آدمکشی"
    expect(screen("میخواهم بکشم")).toBe("میخواهم بکشم"); // with or without the non-joiner, one word
    expect(screen("a quiet harbour at dawn")).toBeUndefined();
    expect(promptScreen([])("gore")).toBeUndefined();
    // texts that are not rules are left out, not matched as patterns
    expect(promptScreen(["(.*)", "a|b"])("anything at all")).toBeUndefined();
  });

  test("what shows nothing cannot hide a word: zero-width space, soft hyphen, word joiner, Arabic vowel signs", () => {
    const screen = promptScreen(["nude", "برهنه"]);
    expect(screen("a nu\u200Bde figure")).toBe("nude");
    expect(screen("a nu\u00ADde figure")).toBe("nude");
    expect(screen("بر\u2060هنه")).toBe("برهنه");
    expect(screen("بَرهنه")).toBe("برهنه");
    // a rule written with them is the same rule
    expect(promptScreen(["nu\u00ADde"])("nude")).toBe("nude");
    // and a letter with its accent is still its own letter
    expect(promptScreen(["nude"])("nudé")).toBeUndefined();
  });

  test("random prompts and rules never throw, and a long prompt against many stars is quick", () => {
    const alphabet = "ab*  .،خشونت-ZZ\u200c";
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const text = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join("");
    for (let i = 0; i < 500; i++) {
      const rules = Array.from({ length: 3 }, () => text(1 + random(12)));
      expect(() => promptScreen(rules)(text(random(200)))).not.toThrow();
    }
    const started = performance.now();
    const screen = promptScreen(["a*a*a*a*a*a*b", "*a*a*a*c"]);
    expect(screen("a".repeat(2_000))).toBeUndefined();
    // far below a request's time; a backtracking pattern would take minutes here
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
