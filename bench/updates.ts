import { performance } from "node:perf_hooks";
import { startHarness } from "../test/support/harness";

/**
 * Updates handled per second by the running bot: many users each send /balance
 * a few times through the Telegram stand-in (polling, every middleware, a
 * Postgres read and a reply per update). Measures the per-update cost of the
 * middleware chain, e.g. with and without a per-update session read and write.
 */
export async function updatesBench(users = 100, perUser = 5) {
  const h = await startHarness({ clockFactor: 1 });
  try {
    const people = Array.from({ length: users }, () => h.tg.user());
    for (const u of people) await u.send("/start");
    await h.tg.idle();
    const sent = () => h.tg.callsOf("sendMessage").length;
    await waitFor(() => sent() >= users);
    const before = sent();
    const expected = before + users * perUser;
    const t0 = performance.now();
    await Promise.all(
      people.map(async (u) => {
        for (let i = 0; i < perUser; i++) await u.send("/balance");
      }),
    );
    await waitFor(() => sent() >= expected);
    const seconds = (performance.now() - t0) / 1000;
    return {
      updates: users * perUser,
      users,
      seconds: Number(seconds.toFixed(2)),
      updates_per_second: Math.round((users * perUser) / seconds),
    };
  } finally {
    await h.stop();
  }
}

async function waitFor(done: () => boolean, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error("bench timed out waiting for replies");
    await new Promise((r) => setTimeout(r, 5));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await updatesBench());
  const best = Math.max(...runs.map((r) => r.updates_per_second));
  process.stdout.write(
    `${JSON.stringify({ bench: "updates", runs, best_updates_per_second: best }, null, 2)}\n`,
  );
  process.exit(0);
}
