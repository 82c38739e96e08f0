import { randomBytes } from "node:crypto";
import { Api } from "grammy";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { systemClock } from "../../../src/platform/lib/clock";
import { operatorAlert } from "../../../src/platform/telegram/operator-alert";
import { eventually, redisUrl } from "../../support/harness";

/** The operator alert on real Redis and the Telegram stand-in: every admin, once per pause. */
describe("the operator alert", () => {
  let tg: TelegramStandIn;
  let redis: Redis;
  const prefix = `msb-alert-${randomBytes(6).toString("hex")}`;
  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    await redis?.del(`${prefix}:alert:service-refused`);
    await redis?.quit();
    await tg?.close();
  });

  test("each admin is told once per pause, however many workers notice; again after the pause", async () => {
    const admins = [tg.user(), tg.user()];
    for (const a of admins) await a.send("/start");
    const deps = {
      api: new Api(tg.token, { apiRoot: tg.apiRoot }),
      redis,
      prefix,
      adminIds: admins.map((a) => a.id),
      clock: systemClock,
      logger: pino({ level: "silent" }),
      pauseMs: 400,
    };
    // two workers of one bot, each with its own alert function
    const first = operatorAlert(deps);
    const second = operatorAlert(deps);
    await Promise.all([first("key refused (401)"), second("key refused (401)"), first("key refused (401)")]);
    const told = () => admins.map((a) => a.messages().filter((m) => m.text?.includes("key refused")).length);
    expect(told()).toEqual([1, 1]);
    // the pause is over when its marker expires
    await eventually(async () =>
      (await redis.exists(`${prefix}:alert:service-refused`)) === 0 ? true : undefined,
    );
    await second("balance empty (402)");
    expect(admins.map((a) => a.messages().filter((m) => m.text?.includes("balance empty")).length)).toEqual([
      1, 1,
    ]);
  });
});
