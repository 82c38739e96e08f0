import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import type { BotContext } from "../../../src/bot/context";
import { checkoutFeature, checkoutRefusal } from "../../../src/features/payments/checkout";
import { makePayload, parsePayload } from "../../../src/features/payments/packs";
import { ConfigError, loadConfig } from "../../../src/platform/config/config";
import { type CreditPack, defaultCreditPacks } from "../../../src/platform/config/credit-packs";
import { i18n, translate } from "../../../src/platform/i18n/i18n";
import { createLogger } from "../../../src/platform/lib/logger";
import { testBotInfo } from "../../support/bot-info";

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
  const payload = makePayload({ product: "pack", id: "m", credits: 160, stars: 140, userId: 123456789012 });
  const query = { currency: "XTR", total_amount: 140, invoice_payload: payload, from: { id: 123456789012 } };

  test("a payload is short and reads back", () => {
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(128);
    expect(parsePayload(payload)).toEqual({
      product: "pack",
      id: "m",
      credits: 160,
      stars: 140,
      userId: 123456789012,
    });
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
    const on = (p: typeof packs) => ({ packs: p, plans: [] });
    expect(checkoutRefusal(query, on(packs), undefined)).toBeUndefined();
    expect(checkoutRefusal({ ...query, from: { id: 5 } }, on(packs), undefined)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal({ ...query, total_amount: 139 }, on(packs), undefined)).toBe(
      "buy-invoice-invalid",
    );
    expect(checkoutRefusal({ ...query, currency: "USD" }, on(packs), undefined)).toBe("buy-invoice-invalid");
    expect(checkoutRefusal({ ...query, invoice_payload: "junk" }, on(packs), undefined)).toBe(
      "buy-invoice-invalid",
    );
    expect(checkoutRefusal(query, on([]), undefined)).toBe("buy-pack-gone");
    expect(checkoutRefusal(query, on([{ ...packs[0]!, stars: 150 }]), undefined)).toBe("buy-pack-changed");
    expect(checkoutRefusal(query, on([{ ...packs[0]!, bonus: 0 }]), undefined)).toBe("buy-pack-changed");
  });

  test("a plan is sold while unchanged, and not to a user whose plan runs and renews", () => {
    const plan = { id: "plus", stars: 250, credits: 300, discount: 10 };
    const planPayload = makePayload({ product: "plan", id: "plus", credits: 300, stars: 250, userId: 42 });
    const planQuery = { currency: "XTR", total_amount: 250, invoice_payload: planPayload, from: { id: 42 } };
    expect(parsePayload(planPayload)).toEqual({
      product: "plan",
      id: "plus",
      credits: 300,
      stars: 250,
      userId: 42,
    });
    const catalog = { packs, plans: [plan] };
    expect(checkoutRefusal(planQuery, catalog, undefined)).toBeUndefined();
    expect(checkoutRefusal(planQuery, catalog, { renews: false })).toBeUndefined();
    expect(checkoutRefusal(planQuery, catalog, { renews: true })).toBe("plan-already");
    expect(checkoutRefusal(planQuery, { packs, plans: [] }, undefined)).toBe("plan-gone");
    expect(checkoutRefusal(planQuery, { packs, plans: [{ ...plan, credits: 200 }] }, undefined)).toBe(
      "plan-changed",
    );
    // a pack's payload never buys a plan of the same id, nor the reverse
    expect(checkoutRefusal(planQuery, { packs: [{ ...packs[0]!, id: "plus" }], plans: [] }, undefined)).toBe(
      "plan-gone",
    );
  });
});

/**
 * The checkout's own answer to pre_checkout_query, on the handler alone: in
 * the bot the banned-users stop refuses a banned buyer before it (covered by
 * test/features/payments/payments.e2e.test.ts), and the checkout refuses one all the same.
 */
describe("the pre-checkout answer", () => {
  const buyerId = 123456789012;
  const pack: CreditPack = { id: "m", credits: 150, stars: 140, bonus: 10 };
  const payload = makePayload({ product: "pack", id: "m", credits: 160, stars: 140, userId: buyerId });

  /** The answer to one pre_checkout_query from a buyer banned or not, with the packs on sale. */
  async function answerTo(options: { banned: boolean; packs: readonly CreditPack[] }) {
    const bot = new Bot<BotContext>("0:test", { botInfo: testBotInfo });
    const answers: unknown[] = [];
    bot.api.config.use(async (prev, method, params) => {
      if (method === "answerPreCheckoutQuery") answers.push(params);
      return { ok: true, result: true } as unknown as Awaited<ReturnType<typeof prev>>;
    });
    const logger = createLogger("silent");
    bot.use((ctx, next) => {
      ctx.logger = logger;
      return next();
    });
    bot.use(i18n);
    const recordPaid = () => Promise.reject(new Error("no payment is recorded at checkout"));
    bot.use(
      checkoutFeature({
        packs: options.packs,
        plans: [],
        subscriptions: { active: () => Promise.reject(new Error("a pack's checkout reads no plan")) },
        payments: { recordPaid },
        users: {
          banState: async () => ({ banned: options.banned, language: "en" }),
          touch: () => Promise.reject(new Error("no registration at checkout")),
        },
        ledger: { account: () => Promise.reject(new Error("no balance read at checkout")) },
        sandbox: false,
      }),
    );
    const update: Update = {
      update_id: 1,
      pre_checkout_query: {
        id: "pcq-1",
        from: { id: buyerId, is_bot: false, first_name: "Ada", language_code: "en" },
        currency: "XTR",
        total_amount: 140,
        invoice_payload: payload,
      },
    };
    await bot.handleUpdate(update);
    return answers;
  }

  test("ok for a buyer in good standing paying a pack as it was sold", async () => {
    expect(await answerTo({ banned: false, packs: [pack] })).toEqual([
      { pre_checkout_query_id: "pcq-1", ok: true },
    ]);
  });

  test("refused, with the banned notice, for a banned buyer", async () => {
    expect(await answerTo({ banned: true, packs: [pack] })).toEqual([
      { pre_checkout_query_id: "pcq-1", ok: false, error_message: translate("en", "banned-notice") },
    ]);
  });

  test("refused, saying so, when the pack's price or credits changed since the invoice", async () => {
    for (const changed of [
      { ...pack, stars: 150 },
      { ...pack, bonus: 0 },
    ])
      expect(await answerTo({ banned: false, packs: [changed] })).toEqual([
        { pre_checkout_query_id: "pcq-1", ok: false, error_message: translate("en", "buy-pack-changed") },
      ]);
  });
});
