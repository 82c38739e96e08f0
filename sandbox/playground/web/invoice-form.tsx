import type { InvoiceDetails } from "./api";
import { formatPrice, InvoiceCard, type MessageActions, PayButton } from "./message";

/** How an invoice link's payment form ended, as Telegram tells a Mini App (invoice_closed). */
export type InvoiceStatus = "paid" | "failed" | "cancelled";

/**
 * Telegram's payment form for an invoice link (a Mini App's openInvoice, or
 * a link button in the chat): the invoice, Pay and Cancel. A subscription's
 * price reads "a month".
 */
export function InvoiceForm({
  slug,
  details,
  payments,
  payLink,
  onClosed,
}: {
  slug: string;
  details: InvoiceDetails;
  payments: Pick<MessageActions, "paid" | "pending">;
  payLink(slug: string): Promise<boolean>;
  onClosed(status: InvoiceStatus): void;
}) {
  const payment = `link:${slug}`;
  const price = formatPrice(details.currency, details.total);
  return (
    <div class="invoice-form" data-testid="invoice-form">
      <InvoiceCard invoice={details}>
        <div class="inline-keyboard">
          <PayButton
            payment={payment}
            state={payments}
            label={details.subscriptionPeriod ? `Subscribe: ${price} a month` : `Pay ${price}`}
            onPay={() => void payLink(slug).then((paid) => onClosed(paid ? "paid" : "failed"))}
          />
          <button
            type="button"
            class="key"
            data-testid="invoice-cancel"
            disabled={payments.pending.has(payment)}
            onClick={() => onClosed("cancelled")}
          >
            Cancel
          </button>
        </div>
      </InvoiceCard>
    </div>
  );
}
