import { GrammyError, HttpError } from "grammy";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createTelegramLink, isTelegramAway } from "../../../src/platform/telegram/telegram-link";

const refusal = (error_code: number, description: string) =>
  new GrammyError("refused", { ok: false, error_code, description }, "sendMessage", {});
const lostConnection = () => new HttpError("Network request for 'getMe' failed!", new Error("ECONNREFUSED"));

function rig() {
  const logged: { level: "info" | "warn"; fields: Record<string, unknown>; msg: string }[] = [];
  let clock = 0;
  let answering = false;
  const probe = vi.fn(async () => {
    if (!answering) throw lostConnection();
    return {};
  });
  const link = createTelegramLink({
    probe,
    probeEveryMs: 1_000,
    now: () => clock,
    logger: {
      info: (fields: Record<string, unknown>, msg: string) => logged.push({ level: "info", fields, msg }),
      warn: (fields: Record<string, unknown>, msg: string) => logged.push({ level: "warn", fields, msg }),
    } as never,
  });
  return {
    link,
    probe,
    logged,
    advance(ms: number) {
      clock += ms;
    },
    answer() {
      answering = true;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("isTelegramAway", () => {
  test("no connection or a timeout (HttpError) and any 5xx are Telegram away", () => {
    expect(isTelegramAway(lostConnection())).toBe(true);
    expect(isTelegramAway(refusal(502, "Bad Gateway"))).toBe(true);
    expect(isTelegramAway(refusal(500, "Internal Server Error"))).toBe(true);
  });

  test("a refusal (4xx, a flood wait) and our own bugs are not", () => {
    expect(isTelegramAway(refusal(400, "Bad Request: message is not modified"))).toBe(false);
    expect(isTelegramAway(refusal(403, "Forbidden: bot was blocked by the user"))).toBe(false);
    expect(isTelegramAway(refusal(429, "Too Many Requests: retry after 5"))).toBe(false);
    expect(isTelegramAway(new TypeError("x is undefined"))).toBe(false);
  });
});

describe("the Telegram link", () => {
  test("lost is logged once at warn, back once at info with how long; waiters go on when back", async () => {
    vi.useFakeTimers();
    const r = rig();
    await expect(r.link.waitForTelegram()).resolves.toBeUndefined();
    r.link.observe(lostConnection());
    r.link.observe(refusal(502, "Bad Gateway"));
    r.link.observe(lostConnection());
    expect(r.link.isAway()).toBe(true);
    let done = false;
    const waiting = r.link.waitForTelegram().then(() => {
      done = true;
    });
    // still away: each probe fails, nobody is let go, nothing more is logged
    for (let i = 0; i < 5; i++) {
      r.advance(1_000);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(r.probe).toHaveBeenCalledTimes(5);
    expect(done).toBe(false);
    r.answer();
    r.advance(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(done).toBe(true);
    expect(r.link.isAway()).toBe(false);
    expect(r.logged.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "Telegram lost: updates wait for it"],
      ["info", "Telegram back"],
    ]);
    expect(r.logged[1]?.fields.awayMs).toBe(6_000);
    // no probe once back
    await vi.advanceTimersByTimeAsync(10_000);
    expect(r.probe).toHaveBeenCalledTimes(6);
  });

  test("a 5xx of one method while the probe answers is no outage: nothing logged, waiters go on at the next probe", async () => {
    vi.useFakeTimers();
    const r = rig();
    r.answer();
    r.link.observe(refusal(502, "Bad Gateway"));
    const waiting = r.link.waitForTelegram();
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(r.link.isAway()).toBe(false);
    expect(r.logged).toEqual([]);
  });

  test("answers() asks now: false (lost said once) while unanswered, true (back said) once it answers", async () => {
    const r = rig();
    expect(await r.link.answers()).toBe(false);
    expect(await r.link.answers()).toBe(false);
    expect(r.link.isAway()).toBe(true);
    r.advance(600_000);
    r.answer();
    expect(await r.link.answers()).toBe(true);
    expect(r.link.isAway()).toBe(false);
    expect(r.logged.map((l) => l.msg)).toEqual(["Telegram lost: updates wait for it", "Telegram back"]);
    expect(r.logged[1]?.fields.awayMs).toBe(600_000);
    r.link.close();
  });

  test("a refusal is an answer: Telegram is there", () => {
    const r = rig();
    r.link.observe(lostConnection());
    r.link.observe(refusal(400, "Bad Request: chat not found"));
    expect(r.link.isAway()).toBe(false);
    r.link.close();
  });

  test("the transformer marks lost on no connection and on a 5xx answer, back on any other answer", async () => {
    const r = rig();
    const { transformer } = r.link;
    const cut = async () => {
      throw lostConnection();
    };
    await expect(transformer(cut as never, "sendMessage", {} as never)).rejects.toBeInstanceOf(HttpError);
    expect(r.link.isAway()).toBe(true);
    const ok = async () => ({ ok: true as const, result: true });
    await transformer(ok as never, "sendMessage", {} as never);
    expect(r.link.isAway()).toBe(false);
    const badGateway = async () => ({ ok: false as const, error_code: 502, description: "Bad Gateway" });
    await transformer(badGateway as never, "sendMessage", {} as never);
    expect(r.link.isAway()).toBe(true);
    r.link.close();
  });
});
