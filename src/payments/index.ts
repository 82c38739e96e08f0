/** Stars payments: /buy, checkout, refunds, the store of payments and its reconciler. Code outside this folder imports it from here only. */
export { checkoutFeature } from "./checkout";
export { buyButton, buyFeature, buyKeyboard, paymentCommands } from "./feature";
export { packInvoice } from "./invoice";
export { paymentReconciler } from "./reconciler";
export { refundedPaymentFeature, refundNotice } from "./refunds";
export { createPaymentStore, type Payment, type PaymentHooks, type PaymentStore } from "./store";
