import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { limits } from "../../media/catalog";
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
import { failureText, newKey, useEnv } from "./shared";

export type Status = { kind: "ok" | "error"; text: string } | undefined;

/**
 * The composer's state: where it starts (the options the chat remembers), the
 * draft, the live quote for it, uploads, the running request and the line that
 * reports on it; and what the page can do with them. Every balance an answer
 * carries goes to the page's one balance (`onBalance`).
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
  /** set synchronously: a second press before the page re-renders still finds it */
  const inFlight = useRef(false);
  /** the key of a press that got no answer: pressing again retries it rather than making another */
  const unanswered = useRef<string | undefined>(undefined);

  const onBalance = useRef(props.onBalance);
  onBalance.current = props.onBalance;

  // asked each time Create opens: what the chat confirmed meanwhile is where it starts
  const loadStart = useCallback(() => {
    setStartError(undefined);
    api.composer().then((answer) => {
      setDraft(initialDraft(w.lang, answer.start));
      setStart(answer);
    }, setStartError);
  }, [api, w.lang]);
  useEffect(loadStart, [loadStart]);

  const update = (patch: Partial<Draft>) => {
    unanswered.current = undefined;
    setStatus(undefined);
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
    unanswered.current = undefined;
    setStatus(undefined);
    props.onPresetUsed();
  }, [props.preset, start]);

  const { quote, quoting, forgetQuote } = useLiveQuote(draft, onBalance);

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
        unanswered.current = undefined;
        setStatus(undefined);
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
  const canConfirm = !running && uploading === 0 && !need && !quoting && price !== null;

  const confirm = async () => {
    if (inFlight.current || !canConfirm) return;
    inFlight.current = true;
    setRunning(true);
    setStatus(undefined);
    const key = unanswered.current ?? newKey();
    unanswered.current = key;
    try {
      const answer = await api.generate({
        key,
        request: requestOf(draft),
        expectedPrice: price ?? undefined,
      });
      unanswered.current = undefined;
      setStatus({ kind: "ok", text: w.t(answer.created ? "started" : "already-started") });
      onBalance.current(answer.balance);
    } catch (err) {
      // no answer at all: the generation may exist; the next press sends the same key
      if (!(err instanceof ApiFailure && err.status === 0)) unanswered.current = undefined;
      if (err instanceof ApiFailure && err.body?.error === "price_changed") forgetQuote();
      setStatus({ kind: "error", text: failureText(w, err) });
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
    uploading,
    running,
    status,
    need,
    price,
    canConfirm,
    update,
    attach,
    confirm,
  };
}

/** The server's price for the draft (and for each choice), asked 200 ms after the last change that can move it. */
function useLiveQuote(draft: Draft, onBalance: { current(balance: Balance): void }) {
  const { api } = useEnv();
  const [quote, setQuote] = useState<QuoteResponse>();
  const [quoting, setQuoting] = useState(false);
  // compared as text: a new but equal object must not ask again
  const priced = JSON.stringify(pricedOf(draft));
  useEffect(() => {
    let stale = false;
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
  }, [priced, api]);
  return { quote, quoting, forgetQuote: () => setQuote(undefined) };
}
