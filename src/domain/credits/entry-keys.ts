/** The ledger keys of a Stars purchase and of its refund, by Telegram's charge id. */
export const purchaseKey = (chargeId: string) => `purchase-${chargeId}`;
/** The ledger key of a monthly plan's period (a subscription's payment, first or renewal), by its charge id. */
export const planPeriodKey = (chargeId: string) => `plan-${chargeId}`;
export const purchaseRefundKey = (chargeId: string) => `purchase-refund-${chargeId}`;
/** The ledger key of one user's redemption of one promo code: unique, so a code counts once per user. */
export const promoKeyPrefix = "promo:";
export const promoGrantKey = (code: string, userId: number) => `${promoKeyPrefix}${code}:${userId}`;
/** The ledger key of a reported result's refund by an admin: once per result. */
export const reportRefundKey = (generationId: string) => `report-${generationId}`;
