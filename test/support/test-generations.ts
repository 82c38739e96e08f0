import pino from "pino";
import { createLedger } from "../../src/domain/credits/ledger";
import type { GenerationsOptions } from "../../src/domain/generations/context";
import { createGenerations } from "../../src/domain/generations/service";
import { createPrices, loadPriceTable } from "../../src/domain/pricing/prices";
import type { Database } from "../../src/platform/db/client";
import { systemClock } from "../../src/platform/lib/clock";

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
