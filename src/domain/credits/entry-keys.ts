/** The ledger keys of a Stars purchase and of its refund, by Telegram's charge id. */
export const purchaseKey = (chargeId: string) => `purchase-${chargeId}`;
export const purchaseRefundKey = (chargeId: string) => `purchase-refund-${chargeId}`;
