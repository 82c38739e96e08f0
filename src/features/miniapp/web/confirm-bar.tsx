import type { ComponentChildren } from "preact";
import type { Balance, QuoteResponse } from "../contract";
import type { Key } from "./i18n";
import { useEnv } from "./shared";

/**
 * The price with the balance (the chat's summary line, from the page's one
 * balance), what is still missing, a way to buy more when short, and Confirm;
 * once the draft spent, no Confirm but "Make another" (a new draft).
 */
export function ConfirmBar(props: {
  quote: QuoteResponse | undefined;
  balance: Balance | undefined;
  quoting: boolean;
  /** nothing to price yet (a dub before its file): no price, not even a guess */
  unpriced: boolean;
  price: number | null;
  need: Key | undefined;
  running: boolean;
  canConfirm: boolean;
  /** the draft made its request: Confirm is not offered for it again */
  spent: boolean;
  renewing: boolean;
  onBuy(): void;
  onConfirm(): void;
  onAnother(): void;
  /** drawn last, under Confirm */
  children?: ComponentChildren;
}) {
  const { w } = useEnv();
  const { quote, price, need, running } = props;
  const available = props.balance?.available ?? 0;
  const insufficient = price !== null && quote !== undefined && price > available;
  const upTo = quote?.upTo === true;
  return (
    <div class="summary">
      <p
        class="price"
        data-testid="price"
        data-value={price ?? ""}
        data-available={props.balance?.available ?? ""}
        aria-live="polite"
      >
        {props.unpriced
          ? w.t("price-after-file", { available })
          : props.quoting && !quote
            ? w.t("price-loading")
            : price === null
              ? w.t("no-price", { available })
              : w.t(upTo ? "price-up-to" : "price", { price, available })}
      </p>
      {need && (
        <p class={need === "need-shorter" ? "error" : "hint"} data-testid="missing">
          {w.t(need)}
        </p>
      )}
      {insufficient && (
        <button type="button" class="link" data-testid="buy-more" onClick={props.onBuy}>
          {w.t("buy-more")}
        </button>
      )}
      {!props.spent && (
        <button
          type="button"
          class="primary wide"
          data-testid="confirm"
          disabled={!props.canConfirm}
          aria-busy={running}
          onClick={props.onConfirm}
        >
          {running
            ? w.t("working")
            : price === null
              ? w.t("confirm-no-price")
              : w.t(upTo ? "confirm-up-to" : "confirm", { price })}
        </button>
      )}
      {props.children}
      {props.spent && (
        <button
          type="button"
          class="wide"
          data-testid="make-another"
          disabled={props.renewing}
          aria-busy={props.renewing}
          onClick={props.onAnother}
        >
          {w.t("make-another")}
        </button>
      )}
    </div>
  );
}
