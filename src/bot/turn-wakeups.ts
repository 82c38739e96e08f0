/** A waiter's hold on its keys: woken by an end of any of them, even one that came before it waited. */
export interface TurnWatch {
  /** resolves at the next end of one of the keys (or at once, if one came since the last wait), or after pauseMs */
  wait(pauseMs: number): Promise<void>;
  close(): void;
}

/**
 * In-process wake-ups for updates waiting their turn: when an update ends
 * here, the waiters sharing one of its keys try again at once instead of after
 * their pause. Other processes announce the updates they end (NOTIFY, see
 * the journal), which wake the waiters here the same way. A waiter watches its
 * keys before it asks for its turn, so an end that comes while the answer is
 * on its way is not missed.
 */
export function createTurns() {
  const watchers = new Map<string, Set<() => void>>();

  function watch(keys: readonly string[]): TurnWatch {
    let ended = false;
    let wakeWaiter: (() => void) | undefined;
    const onEnd = () => {
      ended = true;
      wakeWaiter?.();
    };
    for (const k of keys) {
      const set = watchers.get(k) ?? new Set();
      watchers.set(k, set);
      set.add(onEnd);
    }
    return {
      wait(pauseMs) {
        return new Promise((resolve) => {
          const done = () => {
            clearTimeout(timer);
            wakeWaiter = undefined;
            ended = false;
            resolve();
          };
          const timer = setTimeout(done, ended ? 0 : pauseMs);
          wakeWaiter = done;
        });
      },
      close() {
        for (const k of keys) {
          const set = watchers.get(k);
          set?.delete(onEnd);
          if (set?.size === 0) watchers.delete(k);
        }
      },
    };
  }

  function end(keys: readonly string[]): void {
    for (const k of keys) for (const onEnd of [...(watchers.get(k) ?? [])]) onEnd();
  }

  return { watch, end };
}
