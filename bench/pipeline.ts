import { performance } from "node:perf_hooks";
import { generationIn, startHarness } from "../test/support/harness";

/**
 * Generations through the whole pipeline (Postgres tx, submit, service, sync,
 * copy, Telegram upload) with the simulator answering at once: what the bot
 * itself costs per generation, and its memory after the run.
 */
export async function pipelineBench(count = 200) {
  const h = await startHarness({
    clockFactor: 1,
    simulator: { latencyMs: { image: 0, edit: 0, video: 0, dub: 0 } },
    env: { WELCOME_CREDITS: "0" },
  });
  try {
    const users = Array.from({ length: 20 }, () => h.tg.user());
    for (const u of users) {
      await u.send("/start");
      await h.runtime.ledger.grant({ userId: u.id, amount: 10_000, key: `bench-${u.id}` });
    }
    const rssBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        h.runtime.generations.create({
          key: `bench-${i}`,
          userId: users[i % users.length]!.id,
          language: "en",
          chat: { chatId: users[i % users.length]!.chatId },
          params: {
            operation: "image",
            prompt: `bench ${i}`,
            model: "nano-core-2",
            imageSize: "1:1",
            numImages: 1,
          },
        }),
      ),
    );
    const created = performance.now() - t0;
    for (const u of users) await generationIn(h, u.id, "delivered", 120_000);
    // every generation, not just each user's latest
    for (;;) {
      const states = await h.runtime.generations.countByState();
      if ((states.delivered ?? 0) >= count) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - t0) / 1000;
    return {
      generations: count,
      create_ms_total: Math.round(created),
      end_to_end_per_second: Number((count / seconds).toFixed(1)),
      seconds: Number(seconds.toFixed(2)),
      rss_mb_after: Math.round(process.memoryUsage().rss / 1e6),
      rss_mb_growth: Math.round((process.memoryUsage().rss - rssBefore) / 1e6),
      audit_violations: (await h.runtime.ledger.audit()).length,
    };
  } finally {
    await h.stop();
  }
}
