import type { ComponentChildren } from "preact";
import type { QuoteResponse } from "../contract";
import type { Key } from "./i18n";
import { Num, useEnv } from "./shared";

/** The price and what it leaves, what is still missing, a way to buy more when short, and Confirm. */
export function ConfirmBar(props: {
  quote: QuoteResponse | undefined;
  quoting: boolean;
  price: number | null;
  need: Key | undefined;
  running: boolean;
  canConfirm: boolean;
  onBuy(): void;
  onConfirm(): void;
  /** drawn last, under Confirm */
  children?: ComponentChildren;
}) {
  const { w } = useEnv();
  const { quote, price, need, running } = props;
  const insufficient = price !== null && quote !== undefined && price > quote.available;
  return (
    <div class="summary">
      <p class="price" data-testid="price" data-value={price ?? ""} aria-live="polite">
        {props.quoting && !quote
          ? w.t("price-loading")
          : price === null
            ? w.t("price-none")
            : w.t("price", { price })}
      </p>
      {quote && (
        <p class="hint" data-testid="available">
          {w.t("available", { available: quote.available })}
        </p>
      )}
      {need && (
        <p class="hint" data-testid="missing">
          {w.t(need)}
        </p>
      )}
      {insufficient && (
        <button type="button" class="link" data-testid="buy-more" onClick={props.onBuy}>
          {w.t("buy-more")}
        </button>
      )}
      <button
        type="button"
        class="primary wide"
        data-testid="confirm"
        disabled={!props.canConfirm}
        aria-busy={running}
        onClick={props.onConfirm}
      >
        {running ? w.t("working") : w.t("confirm")}
        {!running && price !== null && (
          <>
            {" · "}
            <Num value={price} />
          </>
        )}
      </button>
      {props.children}
    </div>
  );
}
