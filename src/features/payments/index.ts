import type { Feature } from "../../bot/feature";
import type { Config } from "../../platform/config/config";
import { type CheckoutDeps, checkoutFeature } from "./checkout";
import { buyFeature, paymentCommands } from "./feature";
import type { PlanSubscriptions } from "./plan-subscriptions";
import { plansFeature } from "./plans";
import { type PaymentReconcilerDeps, paymentReconciler } from "./reconciler";
import { refundedPaymentFeature } from "./refunds";
import type { PaymentStore } from "./store";

/** Stars payments: /buy, checkout, refunds, the store of payments and its reconciler. Code outside this folder imports it from here only. */
export { buyButton, buyKeyboard } from "./feature";
export { invoiceLink, packInvoice, planInvoice } from "./invoice";
export { createPlanSubscriptions, type PlanSubscriptions } from "./plan-subscriptions";
export { activePlanLine, planSummary } from "./plans";
export { refundNotice } from "./refunds";
export { createPaymentStore, type Payment, type PaymentHooks, type PaymentStore } from "./store";

type PaymentsBotDeps = Pick<CheckoutDeps, "users" | "ledger"> & {
  config: Pick<Config, "creditPacks" | "plans" | "sandbox">;
  subscriptions: PlanSubscriptions;
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
    const { creditPacks: packs, plans, sandbox } = deps.config;
    return [
      { phase: "checkout", composer: checkoutFeature({ ...deps, packs, plans, sandbox }) },
      { phase: "checkout", composer: refundedPaymentFeature({ payments: deps.payments, test: sandbox }) },
      { phase: "feature", composer: buyFeature({ ledger: deps.ledger, packs, sandbox }) },
      { phase: "feature", composer: plansFeature({ plans, subscriptions: deps.subscriptions, sandbox }) },
    ];
  },
  periodic: (deps) => {
    const reconciler = paymentReconciler({ ...deps, sandbox: deps.config.sandbox });
    return [
      {
        name: "payments reconciler",
        everyMs: deps.timing.paymentsReconcileEveryMs,
        // a payment or a renewal whose update was lost while the bot was down is granted as it starts
        atStart: true,
        run: async () => {
          await reconciler.reconcile();
        },
      },
    ];
  },
};
