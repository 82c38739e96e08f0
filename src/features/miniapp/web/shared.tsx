import { createContext } from "preact";
import { useContext, useEffect, useRef } from "preact/hooks";
import type { Api } from "./api";
import { ApiFailure } from "./api";
import type { Key, Words } from "./i18n";

/** What every part of the page reads: the API bound to this user's initData, and the words. */
export interface Env {
  api: Api;
  w: Words;
}

export const EnvContext = createContext<Env | undefined>(undefined);

export function useEnv(): Env {
  const env = useContext(EnvContext);
  if (!env) throw new Error("no EnvContext");
  return env;
}

/** The user's words for a failure: the server's own (in the user's language) when it sent some. */
export function failureText(w: Words, err: unknown): string {
  if (!(err instanceof ApiFailure)) return w.t("err-generic");
  if (err.status === 0) return w.t("err-network");
  const body = err.body;
  if (body?.message) return body.message;
  if (body?.error === "insufficient" && body.price !== undefined && body.available !== undefined)
    return w.t("insufficient", { price: body.price, available: body.available });
  const known: Partial<Record<string, Key>> = {
    unauthorized: "err-unauthorized",
    rate_limited: "err-rate_limited",
    not_found: "err-not_found",
    price_changed: "price-changed",
  };
  const key = body && known[body.error];
  return w.t(key ?? "err-generic");
}

export function ErrorLine(props: { error: unknown; onRetry?: () => void }) {
  const { w } = useEnv();
  return (
    <div class="error" role="alert" data-testid="error">
      <span>{failureText(w, props.error)}</span>
      {props.onRetry && (
        <button type="button" class="link" onClick={props.onRetry}>
          {w.t("retry")}
        </button>
      )}
    </div>
  );
}

export function Loading() {
  const { w } = useEnv();
  return (
    <div class="loading" role="status" aria-live="polite" data-testid="loading">
      {w.t("loading")}
    </div>
  );
}

/**
 * A line saying how an action went. On a phone it can be drawn below the fold
 * (under the buttons just pressed): it is brought into view when it appears or
 * its text changes.
 */
export function Notice(props: { kind: "ok" | "error"; text: string; testid: string }) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    line.current?.scrollIntoView({ block: "nearest" });
  }, [props.text]);
  return (
    <p
      ref={line}
      class={props.kind === "ok" ? "notice" : "error"}
      role="status"
      data-testid={props.testid}
      data-kind={props.kind}
    >
      {props.text}
    </p>
  );
}

/** A number shown in the reader's digits, its plain value kept in data-value for machines. */
export function Num(props: { value: number; testid?: string }) {
  const { w } = useEnv();
  return (
    <bdi data-value={props.value} data-testid={props.testid}>
      {w.num(props.value)}
    </bdi>
  );
}
