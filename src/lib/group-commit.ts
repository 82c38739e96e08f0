import DataLoader from "dataloader";

export interface GroupCommitOptions {
  /** most items one round trip carries */
  maxBatch?: number;
  /** batches under way at once; calls made meanwhile gather into the next */
  maxInFlight?: number;
}

const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/**
 * Turns a per-item call into batches, the way a database's group commit does:
 * when nothing is under way a call goes out at once (after the I/O already
 * read this turn of the event loop, which joins it); while a batch is under
 * way, calls gather and go out together when it ends. Under load one round
 * trip serves many callers; alone, a call waits for nobody.
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
  options: GroupCommitOptions = {},
): (item: I) => Promise<O> {
  const maxInFlight = options.maxInFlight ?? 1;
  let slotsTaken = 0;
  const queued: (() => void)[] = [];
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
      maxBatchSize: options.maxBatch ?? 256,
      batchScheduleFn: (dispatch) => {
        if (slotsTaken < maxInFlight) {
          slotsTaken += 1;
          setImmediate(dispatch);
        } else {
          queued.push(dispatch);
        }
      },
    },
  );
  return (item) => loader.load(item);
}
