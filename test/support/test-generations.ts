import pino from "pino";
import { createLedger } from "../../src/credits/ledger";
import type { Database } from "../../src/db/client";
import type { GenerationsOptions } from "../../src/generations/context";
import { createGenerations } from "../../src/generations/service";
import { systemClock } from "../../src/lib/clock";
import { createPrices, loadPriceTable } from "../../src/pricing/prices";

/**
 * The ledger and the generations service on a test database, with what most
 * tests do not care about filled in: the default price table, queues that
 * drop what they are given, the system clock, a silent logger.
 */
export function testGenerations(
  db: Database,
  overrides: Partial<Omit<GenerationsOptions, "db" | "credits">> = {},
) {
  const ledger = createLedger(db);
  const generations = createGenerations({
    db,
    credits: ledger,
    prices: createPrices(loadPriceTable()),
    queues: { submit: async () => {}, sync: async () => {}, deliver: async () => {} },
    clock: systemClock,
    logger: pino({ level: "silent" }),
    ...overrides,
  });
  return { ledger, generations };
}
