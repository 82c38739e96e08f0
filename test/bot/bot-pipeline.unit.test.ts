import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { inArray } from "drizzle-orm";
import { Composer } from "grammy";
import type { Update } from "grammy/types";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBot } from "../../src/bot/bot";
import type { BotContext, BotDeps } from "../../src/bot/context";
import { createUpdateJournal } from "../../src/bot/update-journal";
import { createLedger, type Ledger } from "../../src/domain/credits/ledger";
import { createUsers } from "../../src/domain/users/users";
import { balanceFeature, startFeature } from "../../src/features/account";
import { createPlanSubscriptions } from "../../src/features/payments";
import { cancelFeature } from "../../src/features/requests";
import { loadConfig } from "../../src/platform/config/config";
import { kvStore, processedUpdates } from "../../src/platform/db/schema";
import { createLogger } from "../../src/platform/lib/logger";
import { testBotInfo } from "../support/bot-info";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { redisUrl } from "../support/test-services";

/**
 * The middleware chain of createBot against real Postgres and Redis, with a
 * minimal recording Bot API; test/bot/bot-basics.e2e.test.ts covers the users'
 * stories against the Telegram stand-in.
 */

const botInfo = testBotInfo;

interface Call {
  method: string;
  payload: Record<string, unknown>;
}

let database: TestDatabase;
let redis: Redis;
/** The kernel's deps and the ledger the account features (/start, /balance) are made with. */
let deps: BotDeps & { ledger: Ledger };
const prefix = `msb-test-pipeline-${randomBytes(4).toString("hex")}`;
const logLines: string[] = [];
let nextUpdateId = 1;
let nextUserId = 9_100_000;
const answerAttempts: Record<string, unknown>[] = [];

/** A minimal Bot API over HTTP: records calls, answers sendMessage, and 403 for chats in `blocked`. */
async function startFakeApi() {
  const calls: Call[] = [];
  const blocked = new Set<number>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.url ?? "").split("/").pop() ?? "";
    const payload =
      chunks.length > 0
        ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>)
        : {};
    calls.push({ method, payload });
    const chatId = typeof payload.chat_id === "number" ? payload.chat_id : 0;
    const body = blocked.has(chatId)
      ? { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }
      : {
          ok: true,
          result: {
            message_id: calls.length,
            date: 0,
            chat: { id: chatId, type: "private" },
            text: payload.text,
          },
        };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { apiRoot: `http://127.0.0.1:${port}`, calls, blocked, close: () => server.close() };
}

let api: Awaited<ReturnType<typeof startFakeApi>>;

function makeBot(options: { limit?: number; deps?: BotDeps & { ledger: Ledger } } = {}) {
  const boom = new Composer<BotContext>();
  boom.command("boom", () => {
    throw new Error("db password=hunter2 exploded");
  });
  // answers the press (through an Api that also records every answer the update's
  // handling attempts, before the shown-messages guard can drop one), then fails
  boom.callbackQuery("boom", async (ctx) => {
    ctx.api.config.use((prev, method, payload, signal) => {
      if (method === "answerCallbackQuery") answerAttempts.push(payload as Record<string, unknown>);
      return prev(method, payload, signal);
    });
    await ctx.answerCallbackQuery({ text: "on it" });
    throw new Error("failed after answering");
  });
  const bot = createBot("123456:test-token-not-real-aaaaaaaaaaaa", options.deps ?? deps, {
    apiRoot: api.apiRoot,
    botInfo,
    features: [
      startFeature(options.deps ?? deps),
      balanceFeature({
        ...(options.deps ?? deps),
        subscriptions: createPlanSubscriptions((options.deps ?? deps).db, []),
      }),
      cancelFeature({}),
      boom,
    ].map((composer) => ({ phase: "feature", composer })),
    menuCommands: [],
    rateLimit: { limit: options.limit ?? 50, windowMs: 3_600_000 },
  });
  const since = api.calls.length;
  const texts = () =>
    api.calls
      .slice(since)
      .filter((c) => c.method === "sendMessage")
      .map((c) => String(c.payload.text));
  return { bot, texts };
}

function textUpdate(
  user: { id: number; language?: string },
  text: string,
  updateId = nextUpdateId++,
): Update {
  const entities = text.startsWith("/")
    ? [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]!.length }]
    : undefined;
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: user.id, type: "private", first_name: "Tester" },
      from: { id: user.id, is_bot: false, first_name: "Tester", language_code: user.language ?? "en" },
      text,
      ...(entities ? { entities } : {}),
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const config = loadConfig({ SANDBOX: "1", REDIS_PREFIX: prefix });
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  const ledger = createLedger(database.db);
  const users = createUsers(database.db, ledger, { welcomeCredits: 20 });
  deps = { config, logger, db: database.db, ledger, users, redis };
  api = await startFakeApi();
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  api?.close();
  await database?.drop();
});

describe("the bot's middleware chain", () => {
  test("/start grants the welcome credits once and greets in the user's language", async () => {
    const { bot, texts } = makeBot();
    const user = { id: nextUserId++, language: "fa" };
    await bot.handleUpdate(textUpdate(user, "/start"));
    await bot.handleUpdate(textUpdate(user, "/start"));
    const [first, second] = texts().map((t) => t.replace(/[\u2068\u2069]/g, ""));
    expect(first).toContain("۲۰ اعتبار هدیه");
    expect(second).toContain("دوباره خوش آمدید");
    expect(await deps.ledger.account(user.id)).toMatchObject({ available: 20, held: 0 });
  });

  test("a repeated update_id is handled once", async () => {
    const { bot, texts } = makeBot();
    const user = { id: nextUserId++ };
    const update = textUpdate(user, "/help");
    await bot.handleUpdate(update);
    await bot.handleUpdate(structuredClone(update));
    expect(texts()).toHaveLength(1);
  });

  test("over the limit: one notice per window, then silence", async () => {
    const { bot, texts } = makeBot({ limit: 3 });
    const user = { id: nextUserId++ };
    for (let i = 0; i < 6; i++) await bot.handleUpdate(textUpdate(user, `hello ${i}`));
    const sent = texts();
    expect(sent.filter((t) => t.includes("did not understand"))).toHaveLength(3);
    expect(sent.filter((t) => t.includes("too fast"))).toHaveLength(1);
    expect(sent).toHaveLength(4);
  });

  test("each sender's window is counted apart, also when their updates reach Redis together", async () => {
    const { bot, texts } = makeBot({ limit: 1 });
    const people = Array.from({ length: 6 }, () => ({ id: nextUserId++ }));
    await Promise.all(people.map((p) => bot.handleUpdate(textUpdate(p, "hello"))));
    expect(texts().filter((t) => t.includes("did not understand"))).toHaveLength(6);
    // the window ends: each counter expires within the window's length
    for (const p of people) {
      const ttl = await redis.pttl(`${prefix}:ratelimit:${p.id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
    }
    await Promise.all(people.map((p) => bot.handleUpdate(textUpdate(p, "again"))));
    expect(texts().filter((t) => t.includes("too fast"))).toHaveLength(6);
  });

  test("an error tells the user, in their language, only that something went wrong", async () => {
    const { bot, texts } = makeBot();
    const user = { id: nextUserId++, language: "fa" };
    await bot.handleUpdate(textUpdate(user, "/boom"));
    expect(texts()).toEqual(["متأسفیم، مشکلی از طرف ما پیش آمد. لطفاً کمی بعد دوباره امتحان کنید."]);
    // this user's line: other tests of the file log failures too
    const logged = logLines.find((l) => l.includes("update failed") && l.includes(`"userId":${user.id}`));
    expect(logged).toContain("exploded");
  });

  test("a press answered before the handler fails is not answered again; the user is still told", async () => {
    const { bot, texts } = makeBot();
    const user = { id: nextUserId++ };
    const queryId = `cq-boom-${user.id}`;
    const since = api.calls.length;
    const linesBefore = logLines.length;
    await bot.handleUpdate({
      update_id: nextUpdateId++,
      callback_query: {
        id: queryId,
        chat_instance: "ci",
        data: "boom",
        from: { id: user.id, is_bot: false, first_name: "Tester", language_code: "en" },
        message: {
          message_id: 1,
          date: 0,
          chat: { id: user.id, type: "private", first_name: "Tester" },
          text: "a menu",
        },
      },
    });
    const answers = api.calls.slice(since).filter((c) => c.method === "answerCallbackQuery");
    expect(answers).toHaveLength(1);
    expect(answers[0]!.payload).toMatchObject({ callback_query_id: queryId, text: "on it" });
    // the error boundary did not even try a second answer
    expect(answerAttempts.filter((a) => a.callback_query_id === queryId)).toHaveLength(1);
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain("something went wrong");
    expect(logLines.slice(linesBefore).some((l) => l.includes("failed after answering"))).toBe(true);
  });

  test("a 403 'blocked by the user' marks the user blocked; writing again clears it", async () => {
    const user = { id: nextUserId++ };
    api.blocked.add(user.id);
    const { bot } = makeBot();
    await bot.handleUpdate(textUpdate(user, "/help"));
    expect((await deps.users.get(user.id))?.blockedAt).toBeInstanceOf(Date);
    api.blocked.delete(user.id);
    await bot.handleUpdate(textUpdate(user, "/help"));
    expect((await deps.users.get(user.id))?.blockedAt).toBeNull();
  });

  test("/language saves the choice from the button; later replies use it", async () => {
    const { bot, texts } = makeBot();
    const user = { id: nextUserId++, language: "en" };
    await bot.handleUpdate(textUpdate(user, "/language"));
    const keyboard = api.calls.at(-1)?.payload.reply_markup;
    expect(JSON.stringify(keyboard)).toContain("language:fa");

    const press = (data: string): Update => ({
      update_id: nextUpdateId++,
      callback_query: {
        id: `cq${nextUpdateId}`,
        chat_instance: "ci",
        data,
        from: { id: user.id, is_bot: false, first_name: "Tester", language_code: "en" },
        message: {
          message_id: 1,
          date: 0,
          chat: { id: user.id, type: "private", first_name: "Tester" },
          text: "Choose your language:",
        },
      },
    });
    await bot.handleUpdate(press("language:de"));
    expect((await deps.users.get(user.id))?.language).toBe("en");
    await bot.handleUpdate(press("language:fa"));
    expect((await deps.users.get(user.id))?.language).toBe("fa");
    const edit = api.calls.find((c) => c.method === "editMessageText" && c.payload.chat_id === user.id);
    expect(edit?.payload.text).toContain("فارسی");

    await bot.handleUpdate(textUpdate(user, "/cancel"));
    expect(texts().at(-1)).toBe("کاری برای لغو وجود ندارد.");
  });

  test("an update outside a conversation writes nothing to kv_store", async () => {
    const { bot } = makeBot();
    const user = { id: nextUserId++ };
    const before = await database.db.select({ key: kvStore.key }).from(kvStore);
    await bot.handleUpdate(textUpdate(user, "/help"));
    const after = await database.db.select({ key: kvStore.key }).from(kvStore);
    expect(after.map((r) => r.key).sort()).toEqual(before.map((r) => r.key).sort());
  });

  test("finished updates older than a day are cleaned up; unfinished ones stay", async () => {
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await database.db.insert(processedUpdates).values([
      { updateId: 900_000_001, createdAt: old },
      { updateId: 900_000_002, createdAt: new Date(Date.now() - 3600 * 1000) },
      { updateId: 900_000_003, createdAt: old, state: "pending", payload: { update_id: 900_000_003 } },
    ]);
    await createUpdateJournal(database.db).cleanup();
    const remaining = await database.db
      .select({ id: processedUpdates.updateId })
      .from(processedUpdates)
      .where(inArray(processedUpdates.updateId, [900_000_001, 900_000_002, 900_000_003]))
      .orderBy(processedUpdates.updateId);
    expect(remaining.map((r) => r.id)).toEqual([900_000_002, 900_000_003]);
  });

  test("with Redis unreachable the rate limit lets updates pass", async () => {
    const deadRedis = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    deadRedis.on("error", () => {});
    const { bot, texts } = makeBot({ limit: 1, deps: { ...deps, redis: deadRedis } });
    const user = { id: nextUserId++ };
    await bot.handleUpdate(textUpdate(user, "/help"));
    await bot.handleUpdate(textUpdate(user, "/help"));
    expect(texts()).toHaveLength(2);
    deadRedis.disconnect();
  });
});
