import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { operations } from "../../../platform/media-service/catalog";
import type { AppOperation, MediaItem, ResultSummary } from "../contract";
import { ErrorLine, Loading, useEnv } from "./shared";

const pageSize = 24;

interface Pages {
  items: ResultSummary[];
  next: string | null;
}

/**
 * The user's results, newest first, a page at a time (more as the end scrolls
 * into view), by operation; read again from the first page at each new `visits`.
 */
export function Gallery(props: { onOpen(id: string): void; visits: number }) {
  const { api, w } = useEnv();
  const [operation, setOperation] = useState<AppOperation>();
  const [pages, setPages] = useState<Pages>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const end = useRef<HTMLDivElement>(null);
  /** the filter a request was made for: an answer for an older filter is dropped */
  const current = useRef<AppOperation | undefined>(undefined);
  /** the page being fetched: the button and the end of the list coming into view ask for it once */
  const fetching = useRef<string | undefined>(undefined);

  const load = useCallback(
    (before: string | undefined) => {
      const forOperation = current.current;
      const request = `${forOperation ?? ""}|${before ?? ""}`;
      if (fetching.current === request) return;
      fetching.current = request;
      setBusy(true);
      setError(undefined);
      api.gallery({ operation: forOperation, before, limit: pageSize }).then(
        (page) => {
          if (fetching.current === request) fetching.current = undefined;
          if (current.current !== forOperation) return;
          setPages((old) => ({
            items: before && old ? [...old.items, ...page.items] : page.items,
            next: page.next,
          }));
          setBusy(false);
        },
        (err: unknown) => {
          if (fetching.current === request) fetching.current = undefined;
          if (current.current !== forOperation) return;
          setError(err);
          setBusy(false);
        },
      );
    },
    [api],
  );

  useEffect(() => {
    current.current = operation;
    setPages(undefined);
    load(undefined);
  }, [operation, load, props.visits]);

  const more = pages?.next && !busy && error === undefined ? pages.next : undefined;
  useEffect(() => {
    const target = end.current;
    if (!more || !target) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load(more);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, load]);

  return (
    <section data-testid="gallery">
      <div class="chips">
        {[undefined, ...operations].map((op) => (
          <button
            key={op ?? "all"}
            type="button"
            class="chip"
            aria-pressed={operation === op}
            data-testid={`gallery-filter-${op ?? "all"}`}
            onClick={() => setOperation(op)}
          >
            {op ? w.op(op) : w.t("op-all")}
          </button>
        ))}
      </div>
      {pages && pages.items.length === 0 && (
        <p class="empty" data-testid="gallery-empty">
          {w.t("gallery-empty")}
        </p>
      )}
      {pages && pages.items.length > 0 && (
        <ul class="grid" data-testid="gallery-grid">
          {pages.items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                class="tile"
                data-testid="gallery-item"
                data-id={item.id}
                data-operation={item.operation}
                aria-label={`${w.op(item.operation)} · ${w.date(item.createdAt)}`}
                onClick={() => props.onOpen(item.id)}
              >
                <Thumb media={item.media[0]} />
                {item.media.length > 1 && <span class="count">{w.num(item.media.length)}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {busy && <Loading />}
      {error !== undefined && <ErrorLine error={error} onRetry={() => load(pages?.next ?? undefined)} />}
      {more && (
        <button type="button" class="secondary wide" data-testid="gallery-more" onClick={() => load(more)}>
          {w.t("gallery-more")}
        </button>
      )}
      <div ref={end} class="end" />
    </section>
  );
}

const icons: Record<MediaItem["kind"], string> = { photo: "🖼", video: "🎬", audio: "🎧", document: "📄" };

function Thumb({ media }: { media: MediaItem | undefined }) {
  if (!media) return <span class="icon">❔</span>;
  if (media.kind === "photo") return <img src={media.url} alt="" loading="lazy" decoding="async" />;
  if (media.kind === "video")
    return (
      <>
        {media.poster ? (
          <img src={media.poster} alt="" loading="lazy" decoding="async" />
        ) : (
          <video src={`${media.url}#t=0.1`} preload="metadata" muted playsInline />
        )}
        <span class="badge">▶</span>
      </>
    );
  return <span class="icon">{icons[media.kind]}</span>;
}
