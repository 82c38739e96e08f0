import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { Composer } from "grammy";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../sandbox/playground/telegram";
import { createBot } from "../../src/bot/bot";
import { syncCommands } from "../../src/bot/commands";
import type { BotContext, BotDeps } from "../../src/bot/context";
import { type PollingHandle, startPolling } from "../../src/bot/polling";
import { createUpdateJournal } from "../../src/bot/update-journal";
import { telegramWebhookApp } from "../../src/bot/webhook";
import { createLedger, type Ledger } from "../../src/domain/credits/ledger";
import { createUsers } from "../../src/domain/users/users";
import { balanceFeature, startFeature } from "../../src/features/account";
import { createPlanSubscriptions } from "../../src/features/payments";
import { cancelFeature } from "../../src/features/requests";
import { loadConfig } from "../../src/platform/config/config";
import { users as usersTable } from "../../src/platform/db/schema";
import { createLogger } from "../../src/platform/lib/logger";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { plain } from "../support/messages";
import { redisUrl } from "../support/test-services";

const WELCOME = 20;
const RATE_LIMIT = 8;
const runId = randomBytes(4).toString("hex");

/** Fluent wraps placeables in Unicode isolation marks in right-to-left text. */

async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Test-only handlers: one that fails with details the user must never see, one that is slow. */
function testFeatures(): Composer<BotContext> {
  const features = new Composer<BotContext>();
  features.command("boom", () => {
    throw new Error("internal: connection to 10.0.0.5 refused, password=hunter2");
  });
  features.command("slow", async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await ctx.reply("slow done");
  });
  return features;
}

/**
 * Each stand-in numbers its users and updates from the same ranges, so each
 * gets a database and a Redis prefix of its own.
 */
/** The kernel's deps and the ledger the account features (/start, /balance) are made with. */
type WorldDeps = BotDeps & { ledger: Ledger };

async function createWorld(name: string) {
  const database = await createTestDatabase();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const prefix = `msb-test-bot-basics-${runId}-${name}`;
  const config = loadConfig({ SANDBOX: "1", REDIS_PREFIX: prefix, WELCOME_CREDITS: String(WELCOME) });
  const logLines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  );
  const ledger = createLedger(database.db);
  const users = createUsers(database.db, ledger, { welcomeCredits: config.welcomeCredits });
  const deps: WorldDeps = { config, logger, db: database.db, ledger, users, redis };
  return {
    database,
    deps,
    logLines,
    botFor: (tg: TelegramStandIn) =>
      createBot(tg.token, deps, {
        apiRoot: tg.apiRoot,
        features: [
          startFeature(deps),
          balanceFeature({ ...deps, subscriptions: createPlanSubscriptions(deps.db, []) }),
          cancelFeature({}),
          testFeatures(),
        ].map((composer) => ({
          phase: "feature",
          composer,
        })),
        // as syncCommands(bot) below: no feature puts a command in the menu
        menuCommands: [],
        rateLimit: { limit: RATE_LIMIT, windowMs: 60 * 60 * 1000 },
      }),
    async close() {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}

describe("bot basics over long polling", () => {
  let tg: TelegramStandIn;
  let polling: PollingHandle;
  let world: Awaited<ReturnType<typeof createWorld>>;
  let deps: WorldDeps;
  let database: TestDatabase;
  let logLines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    world = await createWorld("polling");
    ({ deps, database, logLines } = world);
    // Flood control is not what these tests are about; the rate-limit test sends fast.
    tg = await startTelegramStandIn({ rules: { flood: false } });
    const bot = world.botFor(tg);
    await syncCommands(bot);
    polling = await startPolling(bot, createUpdateJournal(database.db));
  });

  afterAll(async () => {
    await polling?.stop();
    await tg?.close();
    await world?.close();
  });

  test("/start grants the welcome credits once; a second /start does not", async () => {
    const user = tg.user({ language: "en", firstName: "Maya" });
    await user.send("/start");
    const hello = await user.waitFor((m) => m.text?.includes("Hi Maya"));
    expect(hello.text).toContain(`${WELCOME} free credits`);
    expect(await deps.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });

    await user.send("/start");
    const again = await user.waitFor((m) => m.text?.includes("Welcome back, Maya"), { after: hello });
    expect(again.text).toContain(`Balance: ${WELCOME} credits`);
    expect(await deps.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
    expect(await deps.ledger.audit({ userId: user.id })).toEqual([]);
    expect(await deps.users.get(user.id)).toMatchObject({
      firstName: "Maya",
      language: "en",
      blockedAt: null,
    });
  });

  test("a user whose Telegram speaks Persian is answered in Persian", async () => {
    const user = tg.user({ language: "fa", firstName: "Sara" });
    await user.send("/start");
    const hello = await user.waitFor((m) => plain(m.text).includes("سلام Sara"));
    expect(plain(hello.text)).toContain("۲۰ اعتبار هدیه");
    await user.send("/help");
    // each command isolated in the right-to-left text (U+2068 … U+2069), with its menu description
    const help = await user.waitFor((m) => plain(m.text).includes("/balance — موجودی اعتبار"));
    expect(help.text).toContain("\u2068/language\u2069 — تغییر زبان");
    expect((await deps.users.get(user.id))?.language).toBe("fa");
  });

  test("/language switches the language with a button, and the choice sticks", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/language");
    await user.waitFor((m) => m.text === "Choose your language:");
    const query = await user.press("فارسی");
    expect((await user.waitForAnswer(query)).text).toContain("فارسی");
    await user.waitFor((m) => m.text === "انجام شد: از این پس فارسی صحبت می‌کنم.");
    expect((await deps.users.get(user.id))?.language).toBe("fa");

    const before = user.lastMessage();
    await user.send("/balance");
    const balance = await user.waitFor((m) => m.text?.includes("اعتبار شما"), { after: before });
    expect(plain(balance.text)).toContain("قابل استفاده: ۰");

    await user.send("/language");
    await user.waitFor((m) => m.text === "زبان را انتخاب کنید:");
    await user.press("English");
    await user.waitFor((m) => m.text === "Done: I will speak English from now on.");
    expect((await deps.users.get(user.id))?.language).toBe("en");
  });

  test("/balance shows available and reserved credits", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => m.text?.includes("free credits"));
    const hold = await deps.ledger.hold({ userId: user.id, amount: 6, key: `test-hold:${user.id}` });
    expect(hold.ok).toBe(true);
    await user.send("/balance");
    const balance = await user.waitFor((m) => m.text?.startsWith("💳"));
    expect(
      balance.text?.startsWith("💳 Your credits\nAvailable: 14\nReserved for requests in progress: 6\n"),
    ).toBe(true);
    // the latest movements, newest first: the hold, then the welcome credits
    expect(balance.text).toMatch(/−6 reserved for a request\n.*\+20 welcome credits/);
  });

  test("/cancel with nothing in progress, and unknown text, get a friendly answer", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/cancel");
    await user.waitFor((m) => m.text === "There is nothing to cancel.");
    await user.send("what can you do?");
    await user.waitFor((m) => m.text === "I did not understand that. Send /help to see what I can do.");
  });

  test("the command menu is set in both languages", async () => {
    const en = tg.user({ language: "en" }).commandMenu();
    const fa = tg.user({ language: "fa" }).commandMenu();
    expect(JSON.stringify(en)).toContain("Your credits");
    expect(JSON.stringify(fa)).toContain("موجودی اعتبار");
  });

  test("past the rate limit: one polite notice, then silence", async () => {
    const user = tg.user({ language: "en" });
    for (let i = 1; i <= RATE_LIMIT + 3; i++) await user.send(`message ${i}`);
    await user.waitFor((m) => m.text?.includes("too fast"));
    await eventually(
      async () =>
        logLines.filter((l) => l.userId === user.id && l.outcome === "silence").length === 2
          ? true
          : undefined,
      "the last two updates to be dropped",
    );
    const texts = user.messages().map((m) => m.text);
    expect(texts.filter((t) => t?.includes("did not understand"))).toHaveLength(RATE_LIMIT);
    expect(texts.filter((t) => t?.includes("too fast"))).toHaveLength(1);
    expect(texts).toHaveLength(RATE_LIMIT + 1);
  });

  test("an error is logged and the user told, in their language, without details", async () => {
    const en = tg.user({ language: "en" });
    await en.send("/boom");
    const sorry = await en.waitFor((m) => m.text?.includes("Sorry"));
    expect(sorry.text).toBe("Sorry, something went wrong on our side. Please try again in a moment.");
    const fa = tg.user({ language: "fa" });
    await fa.send("/boom");
    const sorryFa = await fa.waitFor((m) => m.text?.includes("متأسفیم"));
    expect(sorryFa.text).not.toMatch(/hunter2|10\.0\.0\.5|internal/);
    const logged = logLines.find((l) => l.msg === "update failed" && l.userId === fa.id);
    expect(JSON.stringify(logged)).toContain("connection to 10.0.0.5 refused");
    // the bot goes on
    await fa.send("/cancel");
    await fa.waitFor((m) => m.text === "کاری برای لغو وجود ندارد.");
  });

  test("a user who blocks the bot is marked blocked, and unmarked when they write again", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => m.text?.includes("free credits"));
    await user.block();
    await eventually(async () => (await deps.users.get(user.id))?.blockedAt ?? undefined, "blocked_at");

    await user.unblock();
    await user.send("/help");
    await user.waitFor((m) => m.text?.startsWith("I make AI media"));
    expect((await deps.users.get(user.id))?.blockedAt).toBeNull();
  });

  test("a 403 'bot was blocked by the user' on a send marks the user blocked", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => m.text?.includes("free credits"));
    await user.block();
    await eventually(async () => (await deps.users.get(user.id))?.blockedAt ?? undefined, "blocked_at");
    // As if the my_chat_member update had been missed: only the failing send can tell.
    await database.db.update(usersTable).set({ blockedAt: null }).where(eq(usersTable.id, user.id));

    const probe = createBot(tg.token, deps, { apiRoot: tg.apiRoot, menuCommands: [] });
    await expect(probe.api.sendMessage(user.id, "news")).rejects.toThrow(/blocked by the user/);
    expect((await deps.users.get(user.id))?.blockedAt).toBeInstanceOf(Date);
  });
});

describe("bot basics over a webhook", () => {
  let tg: TelegramStandIn;
  let server: ReturnType<typeof serve>;
  let world: Awaited<ReturnType<typeof createWorld>>;

  beforeAll(async () => {
    world = await createWorld("webhook");
    // The stand-in gives up on a webhook answer after 300 ms and delivers the update again.
    tg = await startTelegramStandIn({
      rules: { flood: false, webhook: { timeoutMs: 300, retryDelayMs: 100 } },
    });
    const bot = world.botFor(tg);
    const secretToken = `secret-${randomBytes(8).toString("hex")}`;
    const app = telegramWebhookApp(bot, {
      secretToken,
      path: "/telegram",
      timeoutMs: 5000,
      journal: createUpdateJournal(world.database.db),
      logger: world.deps.logger,
    });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    await bot.api.setWebhook(`http://127.0.0.1:${port}/telegram`, { secret_token: secretToken });
  });

  afterAll(async () => {
    await tg?.close();
    await new Promise((resolve) => server?.close(resolve));
    await world?.close();
  });

  test("an update delivered again (same update_id) is handled once", async () => {
    const user = tg.user({ language: "en" });
    await user.send("/slow");
    await user.waitFor((m) => m.text === "slow done");
    await tg.idle();
    const deliveries = tg.deliveries.filter((d) => d.update.message?.from?.id === user.id);
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(deliveries.map((d) => d.update.update_id)).size).toBe(1);
    expect(deliveries[0]?.status).toBe("timeout");
    // every copy after the first was dropped by the journal at arrival (the webhook logs each)
    const updateId = deliveries[0]!.update.update_id;
    await eventually(
      async () =>
        world.logLines.filter((l) => l.msg === "repeated update dropped" && l.updateId === updateId).length >=
        deliveries.length - 1
          ? true
          : undefined,
      "every redelivered copy dropped",
    );
    expect(user.messages().filter((m) => m.text === "slow done")).toHaveLength(1);
  });

  test("commands work the same over the webhook", async () => {
    const user = tg.user({ language: "fa" });
    await user.send("/start");
    const hello = await user.waitFor((m) => plain(m.text).includes("اعتبار هدیه"));
    expect(plain(hello.text)).toContain("۲۰");
  });
});

describe("stopping long polling", () => {
  test("stop() waits for the update in progress to finish", async () => {
    const world = await createWorld("drain");
    const tg = await startTelegramStandIn({ rules: { flood: false } });
    try {
      const polling = await startPolling(world.botFor(tg), createUpdateJournal(world.database.db));
      const user = tg.user({ language: "en" });
      await user.send("/slow");
      // fetched and confirmed: the bot holds it now
      await tg.idle();
      await polling.stop();
      expect(user.messages().map((m) => m.text)).toEqual(["slow done"]);
      expect(polling.isRunning()).toBe(false);
    } finally {
      await tg.close();
      await world.close();
    }
  });
});
