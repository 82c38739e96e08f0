import type { Feature } from "../../bot/feature";
import type { Config } from "../../platform/config/config";
import { type CheckoutDeps, checkoutFeature } from "./checkout";
import { buyFeature, paymentCommands } from "./feature";
import { type PaymentReconcilerDeps, paymentReconciler } from "./reconciler";
import { refundedPaymentFeature } from "./refunds";
import type { PaymentStore } from "./store";

/** Stars payments: /buy, checkout, refunds, the store of payments and its reconciler. Code outside this folder imports it from here only. */
export { buyButton, buyKeyboard } from "./feature";
export { packInvoice } from "./invoice";
export { refundNotice } from "./refunds";
export { createPaymentStore, type Payment, type PaymentHooks, type PaymentStore } from "./store";

type PaymentsBotDeps = Pick<CheckoutDeps, "users" | "ledger"> & {
  config: Pick<Config, "creditPacks" | "sandbox">;
  payments: Pick<PaymentStore, "recordPaid" | "refund" | "recordRefundedUnpaid">;
};

type PaymentsWorkerDeps = Omit<PaymentReconcilerDeps, "sandbox" | "lookbackMs"> & {
  config: Pick<Config, "sandbox">;
  timing: { paymentsReconcileEveryMs: number };
};

/** Checkout before the conversations (a payment is nobody's answer); /buy among the features; a reconciler round. */
export const payments: Feature<PaymentsBotDeps, PaymentsWorkerDeps> = {
  name: "payments",
  commands: paymentCommands,
  bot: (deps) => {
    const { creditPacks: packs, sandbox } = deps.config;
    return [
      { phase: "checkout", composer: checkoutFeature({ ...deps, packs, sandbox }) },
      { phase: "checkout", composer: refundedPaymentFeature({ payments: deps.payments, test: sandbox }) },
      { phase: "feature", composer: buyFeature({ ledger: deps.ledger, packs, sandbox }) },
    ];
  },
  periodic: (deps) => {
    const reconciler = paymentReconciler({ ...deps, sandbox: deps.config.sandbox });
    return [
      {
        name: "payments reconciler",
        everyMs: deps.timing.paymentsReconcileEveryMs,
        run: async () => {
          await reconciler.reconcile();
        },
      },
    ];
  },
};
