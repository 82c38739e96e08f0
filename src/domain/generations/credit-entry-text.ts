import type { Translate } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import type { EntryRequest, EntryView } from "../credits/recent-entries";
import { describeParams, generationParams } from "./params";

/** How much of a request's words a movement shows. */
const requestWords = 32;

/** Which request a movement was for: its kind and its words (a prompt, or a dub's languages). */
function requestName(t: Translate, request: EntryRequest | undefined): string {
  const params = request ? generationParams.safeParse(request.params) : undefined;
  if (!request || !params?.success) return t("credit-request-unknown");
  return t("credit-request", {
    operation: t(`op-${params.data.operation}`),
    words: shorten(describeParams(params.data, t), requestWords),
  });
}

/** A balance movement as the user reads it, in /balance and the Mini App's Credits alike. */
export function entryText(t: Translate, e: EntryView): string {
  return t(`credit-entry-${e.label}`, { amount: e.amount, back: e.back, request: requestName(t, e.request) });
}
