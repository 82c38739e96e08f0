import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { limits } from "../../../platform/media-service/catalog";
import type { Balance, ComposerResponse, PresetResponse, QuoteRequest, QuoteResponse } from "../contract";
import { ApiFailure } from "./api";
import {
  type Attached,
  type Draft,
  fitted,
  initialDraft,
  missing,
  pricedOf,
  requestOf,
  withOperation,
  withPreset,
} from "./draft";
import { failureText, useEnv } from "./shared";

export type Status = { kind: "ok" | "error"; text: string } | undefined;

/**
 * The composer's state: where it starts (the options the chat remembers), the
 * draft, the live quote for it, uploads, the running request and the line that
 * reports on it; and what the page can do with them. Every balance an answer
 * carries goes to the page's one balance (`onBalance`).
 *
 * The draft has the server's id (`draftId`, from GET /composer): Confirm sends
 * it, and the server makes one generation per draft, however many presses
 * reach it. Once it spent (`spent`: the generation), Confirm is not offered
 * again; "Make another" asks the server for a new draft, priced again.
 */
export function useComposer(props: {
  preset: PresetResponse | undefined;
  onPresetUsed(): void;
  onBalance(balance: Balance): void;
}) {
  const { api, w } = useEnv();
  const [start, setStart] = useState<ComposerResponse>();
  const [startError, setStartError] = useState<unknown>();
  const [draft, setDraft] = useState(() => initialDraft(w.lang));
  const [uploading, setUploading] = useState(0);
  const [running, setRunning] = useState(false);
  const [status, setStatus] = useState<Status>();
  const [draftId, setDraftId] = useState<string>();
  /** the generation this draft made */
  const [spent, setSpent] = useState<string>();
  const [renewing, setRenewing] = useState(false);
  /** set synchronously: a second press before the page re-renders still finds it */
  const inFlight = useRef(false);

  const onBalance = useRef(props.onBalance);
  onBalance.current = props.onBalance;

  // asked each time Create opens: what the chat confirmed meanwhile is where it starts
  const loadStart = useCallback(() => {
    setStartError(undefined);
    api.composer().then((answer) => {
      setDraft(initialDraft(w.lang, answer.start));
      setDraftId(answer.draft);
      setSpent(undefined);
      setStart(answer);
    }, setStartError);
  }, [api, w.lang]);
  useEffect(loadStart, [loadStart]);

  const update = (patch: Partial<Draft>) => {
    if (!spent) setStatus(undefined);
    setDraft((d) => {
      const moved =
        patch.operation && patch.operation !== d.operation
          ? withOperation(d, patch.operation, start?.start)
          : d;
      return fitted({ ...moved, ...patch });
    });
  };

  // a preset (a result's action) is set over where the composer starts
  useEffect(() => {
    if (!props.preset || !start) return;
    setDraft((d) => withPreset(d, props.preset!));
    setStatus(undefined);
    props.onPresetUsed();
  }, [props.preset, start]);

  const { quote, quoting, waiting, forgetQuote } = useLiveQuote(draft, draftId, onBalance);

  const attach = async (files: FileList | null, into: "images" | "source") => {
    if (!files) return;
    const picked =
      into === "images"
        ? [...files].slice(0, limits.editMaxImageUrls - draft.images.length)
        : [...files].slice(0, 1);
    setUploading((n) => n + picked.length);
    for (const file of picked) {
      try {
        const answer = await api.upload(file);
        const item: Attached = {
          input: answer.input,
          kind: answer.media,
          name: file.name,
          preview: URL.createObjectURL(file),
        };
        if (into === "images")
          setDraft((d) => ({ ...d, images: [...d.images, item].slice(0, limits.editMaxImageUrls) }));
        else setDraft((d) => ({ ...d, source: item }));
        if (!spent) setStatus(undefined);
      } catch (err) {
        setStatus({ kind: "error", text: failureText(w, err) });
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const promptMaxLength = start?.promptMaxLength ?? Number.POSITIVE_INFINITY;
  const need = missing(draft, promptMaxLength);
  const price = quote?.credits ?? null;
  const canConfirm =
    draftId !== undefined &&
    spent === undefined &&
    !running &&
    !renewing &&
    uploading === 0 &&
    !need &&
    !quoting &&
    price !== null;

  /** A new draft from the server: a deliberate new request, priced again before its Confirm. */
  const renew = async (): Promise<boolean> => {
    setRenewing(true);
    try {
      const answer = await api.newDraft();
      setDraftId(answer.draft);
      setSpent(undefined);
      return true;
    } catch (err) {
      setStatus({ kind: "error", text: failureText(w, err) });
      return false;
    } finally {
      setRenewing(false);
    }
  };

  const makeAnother = async () => {
    if (renewing || running) return;
    setStatus(undefined);
    await renew();
  };

  const confirm = async () => {
    if (inFlight.current || !canConfirm || !draftId) return;
    inFlight.current = true;
    setRunning(true);
    setStatus(undefined);
    try {
      // a press whose answer was lost sends the same draft again: it finds the same generation
      const answer = await api.generate({
        draft: draftId,
        request: requestOf(draft),
        expectedPrice: price ?? undefined,
      });
      setSpent(answer.id);
      setStatus({ kind: "ok", text: w.t(answer.created ? "started" : "already-started") });
      onBalance.current(answer.balance);
    } catch (err) {
      const code = err instanceof ApiFailure ? err.body?.error : undefined;
      if (code === "price_changed") forgetQuote();
      // a draft the server does not know spent nothing: a new one is asked for, to confirm again
      if (code === "draft_refused" && (await renew()))
        setStatus({ kind: "error", text: w.t("draft-renewed") });
      else setStatus({ kind: "error", text: failureText(w, err) });
    } finally {
      inFlight.current = false;
      setRunning(false);
    }
  };

  return {
    start,
    startError,
    loadStart,
    promptMaxLength,
    remembered: start?.remembered.includes(draft.operation) ?? false,
    draft,
    quote,
    quoting,
    /** nothing to price yet: a dub before its file */
    unpriced: waiting,
    uploading,
    running,
    renewing,
    spent,
    status,
    need,
    price,
    canConfirm,
    update,
    attach,
    confirm,
    makeAnother,
  };
}

/**
 * The server's price for the draft (and for each choice), asked 200 ms after the
 * last change that can move it, and for each new draft (priced again before its Confirm).
 */
function useLiveQuote(
  draft: Draft,
  draftId: string | undefined,
  onBalance: { current(balance: Balance): void },
) {
  const { api } = useEnv();
  const [quote, setQuote] = useState<QuoteResponse>();
  const [quoting, setQuoting] = useState(false);
  // compared as text: a new but equal object must not ask again
  const request = pricedOf(draft);
  const priced = request === undefined ? undefined : JSON.stringify(request);
  useEffect(() => {
    let stale = false;
    if (priced === undefined) {
      setQuote(undefined);
      setQuoting(false);
      return;
    }
    setQuoting(true);
    const timer = setTimeout(() => {
      api.quote(JSON.parse(priced) as QuoteRequest["request"]).then(
        (answer) => {
          if (stale) return;
          setQuote(answer);
          setQuoting(false);
          onBalance.current(answer.balance);
        },
        () => {
          if (stale) return;
          setQuote(undefined);
          setQuoting(false);
        },
      );
    }, 200);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [priced, api, draftId]);
  return { quote, quoting, waiting: priced === undefined, forgetQuote: () => setQuote(undefined) };
}
