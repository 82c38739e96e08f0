import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, CallRecord, TestUser } from "../../sandbox/playground/telegram";
import { commandMenus } from "../../src/bot/commands";
import { deliverJob } from "../../src/domain/generations/deliver/deliver-step";
import { broadcasts } from "../../src/platform/db/schema";
import { translate } from "../../src/platform/i18n/i18n";
import { menuCommands } from "../../src/runtime/features";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
  testTelegramRetry,
} from "../support/harness";
import { isPacks } from "../support/payments";

/** The first user a fresh stand-in makes has this id: the admin of these tests. */
const adminId = 5_000_000_001;
const somethingWentWrong = (["en", "fa"] as const).map((language) => translate(language, "error-generic"));

interface LogLine {
  level: number;
  msg: string;
  reason?: string;
  [key: string]: unknown;
}
const parse = (lines: string[]): LogLine[] => lines.map((l) => JSON.parse(l) as LogLine);
/** pino's level of `error` and above */
const errorLevel = 50;

/** Every text the bot put anywhere (messages, captions, answers to presses). */
function textsSent(calls: CallRecord[]): string[] {
  return calls.flatMap((c) =>
    [c.params.text, c.params.caption].filter((v): v is string => typeof v === "string"),
  );
}

/**
 * A Bot API server that is not Telegram's: it answers chat actions, the
 * menus, the menu button and invoices with a bare 500 whose body is only
 * `{"message": …}`, and getUpdates at once.
 */
describe("against a Bot API server that answers some methods with a bare 500", () => {
  let h: Harness;
  let admin: TestUser;
  const logs: string[] = [];
  /** what start-up did: its menu calls and its log lines */
  let startup: { menuCalls: number; lines: LogLine[] };
  const words = (method: string) => `${method} is not supported by this server`;
  const bare = (method: string) => ({ status: 500, body: { message: words(method) } });

  beforeAll(async () => {
    h = await startHarness({ noRuntime: true, logs, env: { ADMIN_IDS: String(adminId), LOG_LEVEL: "info" } });
    for (const method of ["setMyCommands", "setChatMenuButton", "sendChatAction", "sendInvoice"]) {
      h.tg.answerNext(method, bare(method), 10_000);
    }
    await h.startRuntime();
    startup = { menuCalls: h.tg.callsOf("setMyCommands").length, lines: parse(logs) };
    admin = await startedUser(h);
  });
  afterAll(async () => h?.stop());

  /** Whatever a test did (they run in any order): no error logged, no one told that something went wrong. */
  function nothingWentWrong() {
    expect(parse(logs).filter((l) => l.level >= errorLevel)).toEqual([]);
    expect(JSON.stringify(parse(logs))).not.toContain("undefined: undefined");
    const told = textsSent(h.tg.calls);
    for (const text of somethingWentWrong) expect(told).not.toContain(text);
  }

  test("every menu is tried on its own, each failure logged with the server's words", () => {
    const { scopes } = commandMenus(menuCommands, [adminId]).toArgs();
    // each scope and language once: the first refusal stops none of the others (the admin's own included)
    expect(startup.menuCalls).toBe(scopes.length);
    const menus = startup.lines.filter((l) => l.msg === "could not set a command menu");
    expect(menus).toHaveLength(scopes.filter((s) => s.scope?.type !== "chat").length);
    const adminMenus = startup.lines.filter((l) => l.msg.startsWith("could not set an admin's command menu"));
    expect(adminMenus).toHaveLength(1);
    for (const line of [...menus, ...adminMenus]) expect(line.reason).toContain(words("setMyCommands"));
    const button = startup.lines.find((l) => l.msg === "could not set the menu button");
    expect(JSON.stringify(button)).toContain(words("setChatMenuButton"));
    nothingWentWrong();
  });

  test("/stats answers although its typing action fails", async () => {
    expect(admin.id).toBe(adminId);
    const sent = await admin.send("/stats");
    await admin.waitFor((m) => m.text?.startsWith(translate("en", "stats-title")), { after: sent });
    const typing = parse(logs).find((l) => l.msg === "could not show typing");
    expect(typing?.reason).toContain(words("sendChatAction"));
    nothingWentWrong();
  });

  test("a conversation whose typing action fails goes on to its result", async () => {
    const user = await startedUser(h);
    await requestImage(user, "a lighthouse that types");
    await generationIn(h, user.id, "delivered");
    await user.waitFor((m) => Boolean(m.photo));
    expect(h.tg.callsOf("sendChatAction").filter((c) => c.params.chat_id === user.id).length).toBeGreaterThan(
      0,
    );
    nothingWentWrong();
  });

  test("/buy: the invoice refused, the buyer is told so in their language", async () => {
    const user = await startedUser(h, "fa");
    const sent = await user.send("/buy");
    const packs = await user.waitFor(isPacks, { after: sent });
    await user.press(/ ⭐$/, { message: packs });
    await user.waitFor((m) => m.text === translate("fa", "buy-invoice-failed"), { after: packs });
    const line = parse(logs).find((l) => l.msg === "invoice not sent");
    expect(line?.reason).toContain(words("sendInvoice"));
    nothingWentWrong();
  });

  test("getUpdates answered at once: the bot's polls stay a few a second, and it still answers", async () => {
    h.tg.setRules({ holdLongPolls: false });
    try {
      // the poll held when the rule changed ends within the long-poll timeout (1 s in tests)
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const windowMs = 2_000;
      const before = h.tg.callsOf("getUpdates").length;
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const polls = h.tg.callsOf("getUpdates").length - before;
      expect(polls / (windowMs / 1000)).toBeLessThanOrEqual(5);
      expect(polls).toBeGreaterThan(0);
      await startedUser(h);
    } finally {
      h.tg.setRules({ holdLongPolls: true });
    }
    nothingWentWrong();
  });

  test("a result Telegram keeps refusing is refunded within the deliver job's tries, told in a new message", async () => {
    const user = await startedUser(h);
    // every try of every attempt of this one delivery, and not one more (the tests run in any order)
    const tries = testTelegramRetry.attempts * deliverJob.policy.attempts;
    h.tg.answerNext("sendPhoto", bare("sendPhoto"), tries);
    const status = await requestImage(user, "a photo the server will not take");
    const failed = await generationIn(h, user.id, "failed");
    expect(failed.error?.reason).toBe("undeliverable");
    // a refusal in passing, tried again at every attempt of the deliver job, then given up: not 17 minutes of them
    expect(failed.deliveryAttempts).toBe(deliverJob.policy.attempts);
    expect(h.tg.callsOf("sendPhoto").filter((c) => c.params.chat_id === user.id)).toHaveLength(tries);
    const told = translate("en", "gen-undeliverable", { price: failed.charged ?? 0 });
    const notice = await user.waitFor((m) => m.text === told);
    // a new message below (an edit of the old status notifies nobody), the old status gone, the credits back
    expect(notice.message_id).toBeGreaterThan(status.message_id);
    await eventually(async () =>
      user.messages().some((m) => m.message_id === status.message_id) ? undefined : true,
    );
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 100, held: 0 });
    const given = parse(logs).find(
      (l) => l.msg === "result undeliverable: refunding" && l.generationId === failed.id,
    );
    expect(given?.why).toContain(words("sendPhoto"));
    nothingWentWrong();
  });
});

/** Presses `matcher` on the newest message that has it, again on a newer one while the press lands on a stale copy. */
async function pressLive(user: TestUser, matcher: RegExp, has: (m: BotMessage) => boolean) {
  const expired = (["en", "fa"] as const).map((language) => translate(language, "cv-expired-button"));
  for (let tries = 0; tries < 10; tries++) {
    const newest = await eventually(async () => user.messages().filter(has).at(-1));
    const answer = await user.waitForAnswer(await user.press(matcher, { message: newest }));
    if (!expired.includes(answer.text ?? "")) return newest;
    // the bot sent this screen twice (its first answer was cut after Telegram took it): the newer one is live
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no live ${String(matcher)} button\n${user.transcript()}`);
}

const withButton = (matcher: RegExp) => (m: BotMessage) =>
  Boolean(m.reply_markup?.inline_keyboard.flat().some((b) => matcher.test(b.text)));

describe("Telegram dropping 1 connection in 10 and answering 1 call in 20 with a 502", () => {
  let h: Harness;
  const logs: string[] = [];

  beforeAll(async () => {
    h = await startHarness({
      logs,
      env: { ADMIN_IDS: String(adminId), LOG_LEVEL: "info", TELEGRAM_SENDS_PER_SECOND: "20" },
      timing: {
        broadcastTickMs: 300,
        broadcastClaimStaleMs: 2_000,
        // one call in seven fails: eight tries make a call that fails them all about one in four million
        telegramRetry: { attempts: 8, firstDelayMs: 10, maxDelayMs: 80 },
      },
    });
  });
  afterAll(async () => h?.stop());

  test("users' requests and a broadcast all complete; no one is told something went wrong, nothing confirmed is sent twice", {
    timeout: 30_000,
  }, async () => {
    const admin = await startedUser(h);
    expect(admin.id).toBe(adminId);
    const users = [
      await startedUser(h),
      await startedUser(h, "fa"),
      await startedUser(h),
      await startedUser(h),
    ];
    const callsBefore = h.tg.calls.length;
    const faults = h.tg.randomFaults({ seed: 37, dropRate: 0.1, badGatewayRate: 0.05 });

    const imageOf = async (user: TestUser, i: number) => {
      await user.send(`/image a lantern in the fog, take ${i}`);
      await pressLive(user, /✅/, withButton(/✅/));
      await generationIn(h, user.id, "delivered");
      await user.waitFor((m) => Boolean(m.photo));
    };
    const broadcast = async () => {
      await admin.send("/broadcast");
      await admin.waitFor((m) => m.text === translate("en", "bc-ask"));
      await admin.send("Lanterns are back in stock");
      const pick = (m: BotMessage) => Boolean(m.text?.endsWith(translate("en", "bc-pick-audience")));
      await admin.waitFor(pick);
      await pressLive(admin, /^Everyone/, (m) => pick(m) && withButton(/^Everyone/)(m));
      const confirm = await pressLive(admin, /^✅/, withButton(/^✅/));
      return eventually(async () => {
        const [row] = await h.db.db
          .select()
          .from(broadcasts)
          .where(eq(broadcasts.progressMessageId, confirm.message_id));
        return row?.state === "done" ? row : undefined;
      });
    };
    const [done] = await Promise.all([broadcast(), ...users.map(imageOf)]);
    faults.stop();

    // the faults happened, of every kind
    expect(faults.drawn["drop-before"]).toBeGreaterThan(0);
    expect(faults.drawn["drop-after"]).toBeGreaterThan(0);
    expect(faults.drawn["bad-gateway"]).toBeGreaterThan(0);
    expect(done.state).toBe("done");

    const calls = h.tg.calls.slice(callsBefore);
    const told = textsSent(calls);
    for (const text of somethingWentWrong) expect(told).not.toContain(text);
    expect(parse(logs).filter((l) => l.level >= errorLevel)).toEqual([]);

    // what Telegram confirmed to the bot is never sent again; a send whose answer was cut may be
    // (at least once), and a broadcast copy without a clear answer is not (at most once)
    const sends = new Set([
      "sendMessage",
      "sendPhoto",
      "sendDocument",
      "sendMediaGroup",
      "copyMessage",
      "copyMessages",
    ]);
    const confirmed = calls.filter((c) => sends.has(c.method) && c.response.ok && !c.unconfirmed);
    // the broadcast's preview to the admin and the admin's own copy are the same call by design
    const counted = confirmed.filter((c) => !(c.method === "copyMessage" && c.params.chat_id === admin.id));
    const seen = new Map<string, number>();
    for (const c of counted) {
      const key = `${c.method} ${JSON.stringify(c.params)}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(
      confirmed.filter((c) => c.method === "copyMessage" && c.params.chat_id === admin.id).length,
    ).toBeLessThanOrEqual(2);
  });
});
