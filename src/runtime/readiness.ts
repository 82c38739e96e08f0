/**
 * What this process must have running before it is ready, beyond Postgres and
 * Redis: the Telegram intake (bot initialised, polling running or the webhook
 * registered) for the web role, the queue workers for the worker role.
 */
export function createReadiness() {
  const parts = new Map<string, { ok: boolean; detail: string }>();
  const watched = new Map<string, () => { ok: boolean; detail: string }>();
  return {
    set(name: string, ok: boolean, detail: string) {
      watched.delete(name);
      parts.set(name, { ok, detail });
    },
    /** a part that answers for itself at each look (e.g. whether the workers still run) */
    watch(name: string, probe: () => { ok: boolean; detail: string }) {
      parts.delete(name);
      watched.set(name, probe);
    },
    snapshot(): Array<{ name: string; ok: boolean; detail: string }> {
      const out = [...parts].map(([name, p]) => ({ name, ...p }));
      for (const [name, probe] of watched) out.push({ name, ...probe() });
      return out;
    },
  };
}
export type Readiness = ReturnType<typeof createReadiness>;
