import { describe, expect, test } from "vitest";
import { commandMenus } from "../../../src/bot/commands";
import { maxGrant, parseGrant } from "../../../src/features/admin/grant";
import { asciiDigits } from "../../../src/platform/lib/command-words";

const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe("/grant arguments", () => {
  test.each([
    ["", "usage"],
    ["123", "usage"],
    ["123 abc", "amount"],
    ["123 1.5", "amount"],
    ["123 1e3", "amount"],
    ["123 0x10", "amount"],
    ["123 --5 x", "amount"],
    ["123 0", "zero"],
    ["123 -0 why", "zero"],
    [`123 ${maxGrant + 1}`, "too-large"],
    ["123 99999999999999999", "amount"],
    ["123 -7", "reason-required"],
    [`123 5 ${"x".repeat(201)}`, "reason-too-long"],
  ])("%j is refused as %s", (input, problem) => {
    expect(parseGrant(words(input))).toEqual({ ok: false, problem });
  });

  test("a positive amount needs no reason; a negative one keeps its reason", () => {
    expect(parseGrant(words("@bob 50"))).toEqual({ ok: true, target: "@bob", amount: 50, reason: undefined });
    expect(parseGrant(words("42 +5 a gift"))).toEqual({
      ok: true,
      target: "42",
      amount: 5,
      reason: "a gift",
    });
    expect(parseGrant(words("42 -20 refund abuse"))).toEqual({
      ok: true,
      target: "42",
      amount: -20,
      reason: "refund abuse",
    });
    expect(parseGrant(words(`42 ${maxGrant}`))).toMatchObject({ ok: true, amount: maxGrant });
  });

  test("Persian digits and the minus sign typed on a phone are read", () => {
    expect(asciiDigits("۱۲۳٤")).toBe("1234");
    expect(parseGrant(["42", "۵۰"])).toMatchObject({ ok: true, amount: 50 });
    expect(parseGrant(["42", "\u2212۵", "why"])).toMatchObject({ ok: true, amount: -5 });
  });

  test("in reply to a forwarded message, the words are the amount and the reason: the user is the sender", () => {
    expect(parseGrant(words("50 a gift"), true)).toEqual({
      ok: true,
      target: undefined,
      amount: 50,
      reason: "a gift",
    });
    expect(parseGrant(words("-5"), true)).toEqual({ ok: false, problem: "reason-required" });
    expect(parseGrant([], true)).toEqual({ ok: false, problem: "usage" });
    expect(parseGrant(words("@bob 50"), true)).toEqual({ ok: false, problem: "amount" });
  });
});

describe("command menus", () => {
  const admin = ["stats", "user", "grant", "refund", "ban", "unban", "broadcast", "broadcast_cancel"];
  test("admin commands only in each admin's chat scope, every scope in English and Persian", () => {
    const { scopes, uncompliantCommands } = commandMenus(["image", "history"], [11, 22]).toArgs();
    expect(uncompliantCommands).toEqual([]);
    for (const s of scopes) {
      const names = s.commands.map((c) => c.command);
      if (s.scope?.type === "chat")
        expect(names).toEqual(expect.arrayContaining([...admin, "start", "image"]));
      else for (const name of admin) expect(names).not.toContain(name);
      for (const c of s.commands) expect(c.description).not.toMatch(/^cmd-/);
    }
    const keys = scopes.map((s) => `${JSON.stringify(s.scope)}|${s.language_code ?? ""}`).sort();
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
  });

  test("with no admins, no chat scope is set", () => {
    const { scopes } = commandMenus([], []).toArgs();
    expect(scopes.some((s) => s.scope?.type === "chat")).toBe(false);
  });
});
