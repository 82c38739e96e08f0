import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signFileToken } from "../../src/storage/signed-tokens";
import { type Harness, startHarness } from "../support/harness";

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
    expect(await ready.json()).toMatchObject({ ready: true, checks: { postgres: "ok", redis: "ok" } });
  });

  test("/metrics exposes generations by state and queue depth", async () => {
    const user = h.tg.user();
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    await user.send("/image a kite");
    await user.press(/✅/, { message: await user.waitFor((m) => Boolean(m.reply_markup)) });
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const text = await (await fetch(`${h.runtime.url}/metrics`)).text();
    expect(text).toMatch(/msb_generations\{state="(delivering|delivered|completed)"\} 1/);
    expect(text).toContain('msb_queue_jobs{queue="submit"');
    expect(text).toContain('msb_job_outcomes_total{queue="submit",outcome="accepted"} 1');
    expect(text).toMatch(/msb_task_completion_lag_seconds_count \d+/);
  });

  test("service errors and Telegram flood waits are counted", async () => {
    const user = h.tg.user();
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    h.sim.faults.nextCreate({ status: 503, times: 10 });
    h.tg.failNext("sendMessage", {
      code: 429,
      description: "Too Many Requests: retry after 1",
      retryAfter: 1,
    });
    await user.send("/balance");
    await user.waitFor((m) => Boolean(m.text?.includes("Available")), { timeoutMs: 10_000 });
    await h.runtime.media
      .createImage({ prompt: "count me" }, { idempotencyKey: "metrics-probe" })
      .catch(() => undefined);
    h.sim.faults.clear();
    const text = await (await fetch(`${h.runtime.url}/metrics`)).text();
    expect(text).toMatch(/msb_telegram_flood_waits_total [1-9]/);
    expect(text).toMatch(/msb_media_service_errors_total\{kind="server"\} [1-9]/);
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
    const escaping = signFileToken(h.config.signingSecret, { k: "out", p: "../../etc/passwd", e });
    expect((await fetch(`${h.runtime.url}/files/${escaping}`)).status).toBeGreaterThanOrEqual(400);
  });
});
