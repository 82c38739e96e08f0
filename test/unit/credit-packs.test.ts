import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../src/config";
import { checkoutRefusal } from "../../src/payments/checkout";
import { makePayload, parsePayload } from "../../src/payments/packs";
import { defaultCreditPacks } from "../../src/pricing/packs";

const sandbox = { SANDBOX: "1" };

function problems(value: string): string[] {
  try {
    loadConfig({ ...sandbox, CREDIT_PACKS: value });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("CREDIT_PACKS", () => {
  test("unset: the default packs", () => {
    expect(loadConfig(sandbox).creditPacks).toEqual(defaultCreditPacks);
  });

  test("a valid list is taken as given, bonus 0 when left out", () => {
    const packs = loadConfig({
      ...sandbox,
      CREDIT_PACKS: '[{"id":"one","credits":10,"stars":12}]',
    }).creditPacks;
    expect(packs).toEqual([{ id: "one", credits: 10, stars: 12, bonus: 0 }]);
  });

  test.each([
    ["not JSON", "[{id:s}]"],
    ["an object, not a list", '{"id":"s","credits":1,"stars":1}'],
    ["an empty list", "[]"],
    ["a duplicate id", '[{"id":"s","credits":1,"stars":1},{"id":"s","credits":2,"stars":2}]'],
    ["a zero price", '[{"id":"s","credits":1,"stars":0}]'],
    ["fractional credits", '[{"id":"s","credits":1.5,"stars":1}]'],
    ["a negative bonus", '[{"id":"s","credits":1,"stars":1,"bonus":-1}]'],
    ["an id with a colon", '[{"id":"a:b","credits":1,"stars":1}]'],
    ["an unknown field", '[{"id":"s","credits":1,"stars":1,"price":3}]'],
  ])("%s is refused with CREDIT_PACKS named", (_what, value) => {
    const found = problems(value);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((p) => p.startsWith("CREDIT_PACKS"))).toBe(true);
  });
});

describe("invoice payloads and the checkout's checks", () => {
  const packs = [{ id: "m", credits: 150, stars: 140, bonus: 10 }];
  const payload = makePayload({ packId: "m", credits: 160, stars: 140, userId: 123456789012 });
  const query = { currency: "XTR", total_amount: 140, invoice_payload: payload, from: { id: 123456789012 } };

  test("a payload is short and reads back", () => {
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(128);
    expect(parsePayload(payload)).toEqual({ packId: "m", credits: 160, stars: 140, userId: 123456789012 });
    for (const bad of [
      "",
      "buy1:m:160:140",
      "buy1:m:0:140:1",
      "buy2:m:160:140:1",
      `${payload}:x`,
      "x".repeat(200),
    ])
      expect(parsePayload(bad), bad).toBeUndefined();
  });

  test("accepted only for the buyer, at the invoice's amount, while the pack is unchanged", () => {
    expect(checkoutRefusal(query, packs)).toBeUndefined();
    expect(checkoutRefusal({ ...query, from: { id: 5 } }, packs)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal({ ...query, total_amount: 139 }, packs)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal({ ...query, currency: "USD" }, packs)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal({ ...query, invoice_payload: "junk" }, packs)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal(query, [])).toBe("buy-pack-gone");
    expect(checkoutRefusal(query, [{ ...packs[0]!, stars: 150 }])).toBe("buy-pack-changed");
    expect(checkoutRefusal(query, [{ ...packs[0]!, bonus: 0 }])).toBe("buy-pack-changed");
  });
});
