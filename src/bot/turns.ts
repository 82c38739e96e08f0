/**
 * In-process wake-ups for updates waiting their turn: when an update ends
 * here, the waiters sharing one of its keys try again at once instead of after
 * their pause. Other processes announce the updates they end (NOTIFY, see
 * the journal), which wake the waiters here the same way.
 */
export function createTurns() {
  const waiting = new Map<string, Set<() => void>>();

  function next(keys: readonly string[], pauseMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        for (const k of keys) {
          const set = waiting.get(k);
          set?.delete(wake);
          if (set?.size === 0) waiting.delete(k);
        }
        resolve();
      };
      const timer = setTimeout(wake, pauseMs);
      for (const k of keys) {
        const set = waiting.get(k) ?? new Set();
        waiting.set(k, set);
        set.add(wake);
      }
    });
  }

  function end(keys: readonly string[]): void {
    for (const k of keys) for (const wake of [...(waiting.get(k) ?? [])]) wake();
  }

  return { next, end };
}
