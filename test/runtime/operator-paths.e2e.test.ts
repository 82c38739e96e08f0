import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { webhookHeaders } from "../../src/platform/media-service/webhook-signature";
import { signGid } from "../../src/platform/storage/signed-tokens";
import {
  eventually,
  generationIn,
  type Harness,
  redisUrl,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";
import { startTcpProxy } from "../support/tcp-proxy";

/** What the runtime does for the operator and against Telegram's limits, end to end. */
describe("operator paths", () => {
  let h: Harness;
  beforeAll(async () => {
    // ADMIN_IDS is "1" in the harness
    h = await startHarness({ timing: { operatorPauseMs: 600_000 } });
  });
  afterAll(async () => h?.stop());

  test("the status message turns to 'working on it' once the service took the task", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "drop", extraLatencyMs: 60_000 });
    const offer = await requestImage(user);
    await generationIn(h, user.id, "pending");
    await eventually(async () =>
      h.tg
        .callsOf("editMessageText")
        .some(
          (c) =>
            Number(c.params.chat_id) === user.chatId &&
            Number(c.params.message_id) === offer.message_id &&
            String(c.params.text).startsWith("Working on it"),
        )
        ? true
        : undefined,
    );
  });

  test("a refused API key: the admin hears of it from the running bot (once per pause: operator-alert.test.ts)", async () => {
    const alertsToAdmin = () =>
      h.tg
        .callsOf("sendMessage")
        .filter((c) => Number(c.params.chat_id) === 1 && /⚠️/.test(String(c.params.text)));
    const before = alertsToAdmin().length;
    h.sim.faults.nextCreate({ status: 401, code: "unauthorized", times: 1000 });
    const first = await startedUser(h);
    const second = await startedUser(h);
    await requestImage(first, "one");
    await requestImage(second, "two");
    await eventually(async () => (alertsToAdmin().length > before ? true : undefined));
    expect(alertsToAdmin().length - before).toBe(1);
    expect(String(alertsToAdmin().at(-1)?.params.text)).toContain("401");
    h.sim.faults.clear();
    // both requests went back to the queue, paused for operatorPauseMs: they reach the service here
    // once the pause is over, not inside another test (whose submit would wait out the pause, and
    // whose task faults they would take). Delivered is not awaited: the 429 test may hold the deliver queue
    const accepted = (userId: number) =>
      eventually(async () => {
        const [g] = await h.runtime.generations.recent(userId, 1);
        return g && g.state !== "queued" && g.state !== "submitting" ? g.state : undefined;
      }, 40_000);
    const taken = ["pending", "completed", "delivering", "delivered"];
    expect(taken).toContain(await accepted(first.id));
    expect(taken).toContain(await accepted(second.id));
  });

  test("Telegram's 429 on a delivery pauses the whole deliver queue for its retry_after", async () => {
    const user = await startedUser(h);
    h.tg.failNext(
      "sendPhoto",
      { code: 429, description: "Too Many Requests: retry after 60", retryAfter: 60 },
      4,
    );
    await requestImage(user, "a flood");
    const ttl = await eventually(async () => {
      const left = await h.runtime.queues.of("deliver").getRateLimitTtl();
      // the limiter's own windows are a tenth of a second: wait for the long pause
      return left > 2_000 ? left : undefined;
    });
    expect(ttl).toBeGreaterThan(30_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe("the provider's webhook signature", () => {
  let h: Harness;
  const providerSecret = "provider-signing-secret-0123456789";
  beforeAll(async () => {
    h = await startHarness({ env: { MEDIA_WEBHOOK_SIGNING_SECRET: providerSecret } });
  });
  afterAll(async () => h?.stop());

  test("when MEDIA_WEBHOOK_SIGNING_SECRET is set, a body without the provider's signature is refused", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "drop", extraLatencyMs: 60_000 });
    await requestImage(user);
    const g = await generationIn(h, user.id, "pending");
    const url = `${h.config.publicUrl}/webhooks/media/${h.config.media.webhookSecret}`;
    const body = JSON.stringify({
      event: "task.completed",
      data: {
        id: g.taskId,
        status: "completed",
        metadata: { gid: g.id, sig: signGid(h.config.signingSecret, g.id) },
      },
    });
    const unsigned = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(unsigned.status).toBe(400);
    const now = Math.floor(h.clock.now() / 1000);
    const signed = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...webhookHeaders(providerSecret, "wh-1", now, body) },
      body,
    });
    expect(signed.status).toBe(200);
  });
});

describe("readiness of a real process whose Postgres or Redis goes away", () => {
  let h: Harness;
  let child: ChildProcess | undefined;
  let postgres: Awaited<ReturnType<typeof startTcpProxy>>;
  let redis: Awaited<ReturnType<typeof startTcpProxy>>;
  beforeAll(async () => {
    h = await startHarness({ noRuntime: true });
    postgres = await startTcpProxy(Number(new URL(h.env.DATABASE_URL!).port || 5432));
    redis = await startTcpProxy(Number(new URL(redisUrl).port || 6379));
    const database = new URL(h.env.DATABASE_URL!);
    database.port = String(postgres.port);
    child = await h.spawnRuntime({
      ROLE: "web",
      DATABASE_URL: database.toString(),
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    });
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await postgres?.close();
    await redis?.close();
    await h?.stop();
  });

  const readiness = async () => {
    const res = await fetch(`${h.env.PUBLIC_URL}/readyz`, { signal: AbortSignal.timeout(10_000) });
    return {
      status: res.status,
      body: (await res.json()) as { ready: boolean; checks: Record<string, string> },
    };
  };

  test("/readyz says 503 while Redis is unreachable and 200 once it is back", async () => {
    expect((await readiness()).status).toBe(200);
    redis.cut();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body.ready).toBe(false);
    expect(down.body.checks.redis).not.toBe("ok");
    redis.restore();
    await eventually(async () => ((await readiness()).status === 200 ? true : undefined));
  });

  test("/readyz says 503 while Postgres is unreachable and 200 once it is back", async () => {
    expect((await readiness()).status).toBe(200);
    postgres.cut();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body.checks.postgres).not.toBe("ok");
    postgres.restore();
    await eventually(async () => ((await readiness()).status === 200 ? true : undefined));
  });
});
