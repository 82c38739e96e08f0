import DataLoader from "dataloader";

export interface GroupCommitOptions<I> {
  /** most items one round trip carries */
  maxBatch?: number;
  /** batches under way at once; calls made meanwhile gather into the next */
  maxInFlight?: number;
  /**
   * Items that need not go at once: a batch of only these waits up to
   * `lingerMs` for an item that must, and goes with it in one round trip.
   */
  lingers?: (item: I) => boolean;
  /** how long a batch of lingering items waits (5 ms) */
  lingerMs?: number;
}

const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/**
 * Turns a per-item call into batches, the way a database's group commit does:
 * when nothing is under way a call goes out at once (after the I/O already
 * read this turn of the event loop, which joins it); while a batch is under
 * way, calls gather and go out together when it ends. Under load one round
 * trip serves many callers; alone, a call waits for nobody, unless it may
 * linger (`lingers`): then it waits a little for company.
 *
 * `run` answers each item in order; an Error in an item's place fails only
 * that call. When a whole batch fails (one bad item can fail a transaction),
 * each of its items is run again alone, so only a call that fails by itself
 * fails: `run` must leave nothing behind when it throws (one transaction).
 * DataLoader does the gathering (uncached: every call is its own item); only
 * when a batch may leave is decided here.
 */
export function groupCommit<I, O>(
  run: (items: readonly I[]) => Promise<readonly (O | Error)[]>,
  options: GroupCommitOptions<I> = {},
): (item: I) => Promise<O> {
  const maxInFlight = options.maxInFlight ?? 1;
  const maxBatch = options.maxBatch ?? 256;
  let slotsTaken = 0;
  const queued: (() => void)[] = [];
  /** whether the item being loaded may linger: read when it starts a batch */
  let loadingLingers = false;
  /** the batch that lingers, if one does: its size, and its release that lets it go */
  let lingering: { size: number; release(): void } | undefined;
  /** a batch may leave: it takes a free slot, or waits for one */
  const leave = (dispatch: () => void) => {
    if (slotsTaken < maxInFlight) {
      slotsTaken += 1;
      setImmediate(dispatch);
    } else {
      queued.push(dispatch);
    }
  };
  const loader = new DataLoader<I, O>(
    async (items) => {
      try {
        return await run(items);
      } catch (err) {
        if (items.length === 1) throw err;
        // one bad item must not fail the callers it happened to travel with: each goes alone
        return Promise.all(
          items.map((item) =>
            run([item]).then(
              // an item's answer may itself be undefined (a write that returns nothing)
              (answers): O | Error => (answers.length === 1 ? (answers[0] as O | Error) : toError(err)),
              (alone: unknown) => toError(alone),
            ),
          ),
        );
      } finally {
        // the slot passes to the batch that waited longest, or is given back
        const next = queued.shift();
        if (next) setImmediate(next);
        else slotsTaken -= 1;
      }
    },
    {
      cache: false,
      maxBatchSize: maxBatch,
      batchScheduleFn: (dispatch) => {
        if (!loadingLingers) return leave(dispatch);
        const timer = setTimeout(() => batch.release(), options.lingerMs ?? 5);
        const batch = {
          // the item that starts it
          size: 1,
          release() {
            clearTimeout(timer);
            if (lingering === batch) lingering = undefined;
            leave(dispatch);
          },
        };
        lingering = batch;
      },
    },
  );
  return (item) => {
    loadingLingers = options.lingers?.(item) ?? false;
    const joined = lingering;
    const answer = loader.load(item);
    // an item that must go takes the lingering batch it joined along, and so does a full one
    if (joined && joined === lingering && (!loadingLingers || ++joined.size >= maxBatch)) joined.release();
    return answer;
  };
}
