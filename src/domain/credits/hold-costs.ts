import { inArray } from "drizzle-orm";
import type { Executor } from "../../platform/db/client";
import { holds } from "../../platform/db/schema";

/** What a request's reservation came to, from its hold (the ledger's truth). */
export type HoldCost =
  | { kind: "held"; amount: number }
  | { kind: "charged"; amount: number; refunded: number }
  | { kind: "returned"; amount: number }
  | { kind: "free" };

type HoldRow = Pick<typeof holds.$inferSelect, "state" | "amount" | "chargedAmount" | "refundedAmount">;

export function holdCost(h: HoldRow): HoldCost {
  switch (h.state) {
    case "open":
      return { kind: "held", amount: h.amount };
    case "charged":
      return (h.chargedAmount ?? 0) === 0
        ? { kind: "free" }
        : { kind: "charged", amount: h.chargedAmount ?? 0, refunded: h.refundedAmount };
    case "released":
      return { kind: "returned", amount: h.amount };
  }
}

/** The cost of each hold key given (absent: no hold was made). */
export async function holdCosts(ex: Executor, keys: string[]): Promise<Map<string, HoldCost>> {
  if (keys.length === 0) return new Map();
  const rows = await ex
    .select({
      key: holds.key,
      state: holds.state,
      amount: holds.amount,
      chargedAmount: holds.chargedAmount,
      refundedAmount: holds.refundedAmount,
    })
    .from(holds)
    .where(inArray(holds.key, keys));
  return new Map(rows.map((r) => [r.key, holdCost(r)]));
}
