import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signFileToken } from "../../src/platform/storage/signed-tokens";
import { confirmOffer, eventually, generationIn, type Harness, startHarness } from "../support/harness";

describe("health, readiness, metrics and the file proxy", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  test("/healthz and /readyz answer; /readyz checks Postgres, Redis and the queues", async () => {
    expect((await fetch(`${h.runtime.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${h.runtime.url}/readyz`);
    expect(ready.status).toBe(200);
    // each queue's waiting jobs (a queue far behind makes it 503: test/runtime/readiness.integration.test.ts)
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: {
        postgres: "ok",
        redis: "ok",
        queue_submit: expect.stringMatching(/^\d+$/),
        queue_sync: expect.stringMatching(/^\d+$/),
        queue_deliver: expect.stringMatching(/^\d+$/),
      },
    });
  });

  /** The value of one sample in the Prometheus text, 0 when absent. */
  const sample = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  const metrics = async () => (await fetch(`${h.runtime.url}/metrics`)).text();
  const finished = (text: string) =>
    ["delivering", "delivered", "completed"].reduce(
      (n, s) => n + sample(text, `msb_generations{state="${s}"}`),
      0,
    );

  test("/metrics exposes generations by state, queue depth and job outcomes", async () => {
    const before = await metrics();
    const user = h.tg.user();
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    await user.send("/image a kite");
    await user.press(/✅/, { message: await user.waitFor((m) => Boolean(m.reply_markup)) });
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const text = await metrics();
    expect(finished(text) - finished(before)).toBe(1);
    expect(text).toContain('msb_queue_jobs{queue="submit"');
    const accepted = 'msb_job_outcomes_total{queue="submit",outcome="accepted"}';
    expect(sample(text, accepted) - sample(before, accepted)).toBe(1);
    expect(text).toMatch(/msb_task_completion_lag_seconds_count \d+/);
  });

  test("service errors the bot's own requests meet and Telegram flood waits are counted", async () => {
    const before = await metrics();
    const user = h.tg.user();
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    h.tg.failNext("sendMessage", {
      code: 429,
      description: "Too Many Requests: retry after 1",
      retryAfter: 1,
    });
    await user.send("/balance");
    await user.waitFor((m) => Boolean(m.text?.includes("Available")), { timeoutMs: 10_000 });
    // the client retries a 503 itself: an error is counted once a whole call has failed
    h.sim.faults.nextCreate({ status: 503, times: 1000 });
    await user.send("/image a storm");
    await confirmOffer(user);
    const errors = 'msb_media_service_errors_total{kind="server"}';
    const text = await eventually(async () => {
      const now = await metrics();
      return sample(now, errors) > sample(before, errors) ? now : undefined;
    });
    h.sim.faults.clear();
    expect(
      sample(text, "msb_telegram_flood_waits_total") - sample(before, "msb_telegram_flood_waits_total"),
    ).toBeGreaterThanOrEqual(1);
    // the storm resumes once the faults clear: let it finish here, not inside another test's counts
    await generationIn(h, user.id, "delivered", 40_000);
  });

  test("the file proxy serves a Telegram file by signed token and refuses bad ones", async () => {
    const user = h.tg.user();
    await user.send("/start");
    const photo = await user.sendPhoto({ width: 320, height: 200 });
    const fileId = photo.photo!.at(-1)!.file_id;
    const e = Math.floor(h.clock.now() / 1000) + 600;
    const good = signFileToken(h.config.signingSecret, { k: "tg", f: fileId, e });
    const res = await fetch(`${h.runtime.url}/files/${good}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(h.tg.fileBytes(fileId))).toBe(true);
    const expired = signFileToken(h.config.signingSecret, {
      k: "tg",
      f: fileId,
      e: Math.floor(h.clock.now() / 1000) - 1,
    });
    expect((await fetch(`${h.runtime.url}/files/${expired}`)).status).toBe(410);
    const forged = signFileToken("not-our-secret-0123456789abcdef012345", { k: "tg", f: fileId, e });
    expect((await fetch(`${h.runtime.url}/files/${forged}`)).status).toBe(403);
    // a real file just outside the media root (DATA_DIR/media): the token may not reach it
    await writeFile(join(h.config.dataDir, "outside.txt"), "not for download");
    const escaping = signFileToken(h.config.signingSecret, { k: "out", p: "../outside.txt", e });
    const escaped = await fetch(`${h.runtime.url}/files/${escaping}`);
    expect(escaped.status).toBe(404);
    expect(await escaped.text()).not.toContain("not for download");
  });
});
