import { eq, sql } from "drizzle-orm";
import { Bot, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { conversationStorageKey } from "../../src/bot/conversations/plugin";
import {
  type ClaimOutcome,
  createUpdateJournal,
  journalUpdates,
  type UpdateClaim,
  type UpdateJournal,
  type UpdateJournalOptions,
} from "../../src/bot/update-journal";
import { type Database, type DatabaseHandle, type Listen, openDatabase } from "../../src/platform/db/client";
import { rowsOf } from "../../src/platform/db/raw-rows";
import { kvStore, processedUpdates, users } from "../../src/platform/db/schema";
import { testBotInfo } from "../support/bot-info";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { eventually } from "../support/harness";
import { captureLogs } from "../support/log-capture";

let nextId = 1_000;
let nextPerson = 1;
/** an update of `person` (a new person by default), in their private chat */
const update = (person = nextPerson++): Update => ({
  update_id: nextId++,
  message: {
    message_id: nextId,
    date: 0,
    chat: { id: person, type: "private", first_name: "A" },
    from: { id: person, is_bot: false, first_name: "A" },
    text: "/start",
  },
});
const held = (c: ClaimOutcome): UpdateClaim => {
  if (typeof c !== "object") throw new Error(`expected a claim, got ${c}`);
  return c;
};

describe("the update journal", () => {
  let database: TestDatabase;
  const others: DatabaseHandle[] = [];
  beforeAll(async () => {
    database = await createTestDatabase({ max: 4 });
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await database?.drop();
  });

  /** What another process of the bot has of the database: a pool (and a LISTEN connection) of its own. */
  async function otherProcess(): Promise<DatabaseHandle> {
    const handle = await openDatabase({ kind: "postgres", url: database.url, max: 4 });
    others.push(handle);
    return handle;
  }

  const row = async (id: number) =>
    (await database.db.select().from(processedUpdates).where(eq(processedUpdates.updateId, id)))[0];

  test("a recorded update is claimed by one handler at a time, and dropped once done", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const u = update();
    await journal.record([u]);
    await journal.record([u]);
    expect((await row(u.update_id))?.state).toBe("pending");
    const claims = await Promise.all([journal.claim(u), journal.claim(u), journal.claim(u)]);
    expect(claims.filter((c) => typeof c === "object")).toHaveLength(1);
    expect(claims.filter((c) => c === "taken")).toHaveLength(2);
    const c = held(claims.find((x) => typeof x === "object")!);
    await journal.finish(c);
    expect(await row(u.update_id)).toMatchObject({ state: "done", payload: null, attempts: 1 });
    expect(await journal.claim(u)).toBe("taken");
  });

  test("what a dead handler left (an expired lease, or recorded and never claimed) is handed out again", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 200 });
    const leased = update();
    const neverClaimed = update();
    await journal.record([leased, neverClaimed]);
    held(await journal.claim(leased));
    // the handler dies: no finish, no renewal
    expect(await journal.claim(leased)).toBe("taken");
    const deadline = Date.now() + 5_000;
    let left: Update[] = [];
    while (Date.now() < deadline) {
      left = (await journal.leftover()).filter(
        (u) => u.update_id === leased.update_id || u.update_id === neverClaimed.update_id,
      );
      if (left.length === 2) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(left).toEqual([leased, neverClaimed]);
    expect(held(await journal.claim(leased)).attempts).toBe(2);
  });

  test("a released claim can be taken again at once; attempts are counted", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const u = update();
    const first = held(await journal.claim(u));
    await journal.release(first);
    const second = held(await journal.claim(u));
    expect(second.attempts).toBe(2);
    // the first handler's late finish does not touch the second's claim
    await journal.finish(first);
    expect((await row(u.update_id))?.state).toBe("pending");
    await journal.finish(second);
    expect((await row(u.update_id))?.state).toBe("done");
  });

  test("an update that keeps failing past the error boundary is given up after 5 attempts, with a warning", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000, maxAttempts: 5 });
    const { logger, lines } = captureLogs();
    const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo: testBotInfo });
    let runs = 0;
    bot.use((ctx, next) => {
      ctx.logger = logger;
      return next();
    });
    bot.use(journalUpdates(journal));
    bot.use(() => {
      runs += 1;
      throw new Error("the database is down");
    });
    const u = update();
    for (let i = 0; i < 7; i++) await bot.handleUpdate(u).catch(() => undefined);
    expect(runs).toBe(5);
    expect((await row(u.update_id))?.state).toBe("abandoned");
    expect(
      lines.filter((l) => l.msg === "update given up after repeated failures" && l.level === 40),
    ).toHaveLength(1);
    expect((await journal.leftover()).some((x) => x.update_id === u.update_id)).toBe(false);
  });

  /** A bot whose handler fails with a 502 from Telegram, its link answering as `answers` says. */
  function refusedBot(journal: UpdateJournal, answers: () => boolean) {
    const { logger, lines } = captureLogs();
    const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo: testBotInfo });
    let runs = 0;
    let waits = 0;
    const link = {
      answers: async () => answers(),
      waitForTelegram: () => {
        waits += 1;
        return new Promise<void>(() => undefined);
      },
    };
    bot.use((ctx, next) => {
      ctx.logger = logger;
      return next();
    });
    bot.use(journalUpdates(journal, { link, again: (u) => bot.handleUpdate(u) }));
    bot.use(() => {
      runs += 1;
      throw new GrammyError(
        "Call to 'sendMessage' failed!",
        { ok: false, error_code: 502, description: "Bad Gateway" },
        "sendMessage",
        {},
      );
    });
    return { bot, lines, runs: () => runs, waits: () => waits };
  }

  test("a call Telegram keeps refusing with a 5xx while it answers getMe: each try counted, given up after 5", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000, maxAttempts: 5 });
    const r = refusedBot(journal, () => true);
    const u = update();
    await r.bot.handleUpdate(u);
    // tried again at once (no wait for Telegram, which answers) until given up
    await eventually(async () => ((await row(u.update_id))?.state === "abandoned" ? true : undefined));
    expect(r.runs()).toBe(5);
    expect(
      r.lines.filter((l) => l.msg === "update given up after repeated failures" && l.level === 40),
    ).toHaveLength(1);
    expect(r.lines.some((l) => l.level >= 50)).toBe(false);
  });

  test("Telegram away: the update waits for it, however often it is met again, its tries not counted", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000, maxAttempts: 5 });
    const r = refusedBot(journal, () => false);
    const u = update();
    // the first handling, then the recovery pass meeting it again and again while Telegram is away
    for (let i = 0; i < 12; i++) await r.bot.handleUpdate(u);
    expect(r.runs()).toBe(12);
    expect(r.waits()).toBe(1);
    const kept = await row(u.update_id);
    expect(kept?.state).toBe("pending");
    expect(kept?.attempts).toBe(0);
    expect(r.lines.filter((l) => l.msg === "Telegram away: update kept until it answers")).toHaveLength(12);
    expect(r.lines.some((l) => l.level >= 50)).toBe(false);
  });

  test("one person's updates are taken in turn across two journals with pools of their own (as two processes); other people's meanwhile", async () => {
    const here = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const there = createUpdateJournal((await otherProcess()).db, { leaseMs: 60_000 });
    const person = nextPerson++;
    const [first, second, third] = [update(person), update(person), update(person)];
    const stranger = update();
    await here.record([first, second, third, stranger]);
    // the second waits for the first (pending), wherever it is asked
    expect(await there.claim(second)).toBe("wait");
    const a = held(await here.claim(first));
    expect(await there.claim(second)).toBe("wait");
    expect(await here.claim(third)).toBe("wait");
    // someone else is not held up
    held(await there.claim(stranger));
    await here.finish(a);
    const b = held(await there.claim(second));
    expect(await here.claim(third)).toBe("wait");
    await there.finish(b);
    held(await here.claim(third));
  });

  test("an earlier update that arrives while a later one of the same chat is in hand waits for it", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const person = nextPerson++;
    const earlier = update(person);
    const later = update(person);
    const c = held(await journal.claim(later));
    expect(await journal.claim(earlier)).toBe("wait");
    await journal.finish(c);
    held(await journal.claim(earlier));
  });

  test("a claim taken on arrival (webhook) is handed to the handler, and a done update's redelivery is refused", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const u = update();
    expect(await journal.arrive(u)).toBe(true);
    expect((await row(u.update_id))?.state).toBe("pending");
    const c = await journal.claimInTurn(u, [`chat:${u.message?.chat.id}`, `user:${u.message?.from?.id}`]);
    await journal.finish(held(c));
    expect(await journal.arrive(u)).toBe(false);
  });

  test("updates arriving together are recorded and claimed in one transaction: of one person's, the earlier first", async () => {
    const watched = watchedJournal(database, { leaseMs: 60_000 });
    const journal = watched.journal;
    const person = nextPerson++;
    const earlier = update(person);
    const later = update(person);
    const strangers = [update(), update()];
    // the later one is posted first: the batch claims in update_id order
    const arrived = await Promise.all([later, earlier, ...strangers].map((u) => journal.arrive(u)));
    expect(arrived).toEqual([true, true, true, true]);
    const ids = [earlier, later, ...strangers].map((u) => u.update_id);
    const rows = rowsOf<{ update_id: string; tx: string; leased: boolean }>(
      await database.db.execute(
        sql`select update_id, xmin::text as tx, lease_until is not null as leased from processed_updates where update_id in (${sql.join(ids, sql`, `)}) order by update_id`,
      ),
    );
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    expect(rows.map((r) => r.leased)).toEqual([true, false, true, true]);
    // the claims taken on arrival reach the handlers; the later one waits its turn
    const keys = [`chat:${person}`, `user:${person}`];
    const first = held(await journal.claimInTurn(earlier, keys));
    const tried = watched.steps();
    const second = claimInTurn(journal, later, keys);
    // asked, and told to wait
    await eventually(async () => (watched.steps() > tried ? true : undefined));
    expect(second.claimed()).toBe(false);
    await journal.finish(first);
    await journal.finish(held(await second.claim));
    for (const s of strangers) await journal.finish(held(await journal.claimInTurn(s, [])));
    expect((await Promise.all(ids.map(row))).map((r) => r?.state)).toEqual(["done", "done", "done", "done"]);
  });

  test("a claim brings its sender's row and stored conversation, as they are once it is granted", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const person = nextPerson++;
    const [first, second] = [update(person), update(person)];
    const keys = [`user:${person}`];
    // a new person: no row, no conversation
    const a = held(await journal.claim(first));
    expect(a.sender).toEqual({ user: undefined, conversation: null });
    // what the first update's handler writes
    await database.db.insert(users).values({ id: person, firstName: "A", language: "de" });
    await database.db.insert(kvStore).values({
      key: conversationStorageKey({ chatId: person, from: { id: person, is_bot: false, first_name: "A" } })!,
      value: { step: 1 },
    });
    // The second update's claim comes while the first update's finish (another process's,
    // with its handler's last write) holds their key: the claim waits for that lock, and is
    // granted once the finish commits. Its read sees that write: a read with the claim
    // statement's own snapshot, taken before the wait, would not.
    const finisher = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      let claiming: Promise<ClaimOutcome> | undefined;
      await finisher.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtextextended(${keys[0]!}, 0))`;
        claiming = journal.claim(second, keys);
        // the claim waits for the key's lock
        await eventually(async () => ((await advisoryLockWaits()) > 0 ? true : undefined));
        await tx`update users set language = 'es' where id = ${person}`;
        await tx`select finish_updates(${tx.json([{ id: a.updateId, token: a.token, state: "done", keys }])}, 'elsewhere')`;
      });
      const b = held(await claiming!);
      expect(b.sender?.user).toMatchObject({ id: person, firstName: "A", language: "es", bannedAt: null });
      expect(b.sender?.user?.firstSeenAt).toBeInstanceOf(Date);
      expect(JSON.parse(b.sender?.conversation ?? "null")).toEqual({ step: 1 });
      await journal.finish(b);
    } finally {
      await finisher.end();
    }
    // an update from no person (a channel post) reads no sender
    const post = held(
      await journal.claim({
        update_id: nextId++,
        channel_post: {
          message_id: 1,
          date: 0,
          chat: { id: -100123, type: "channel", title: "C" },
          text: "x",
        },
      }),
    );
    expect(post.sender).toBeUndefined();
    await journal.finish(post);
  });

  test("a step that finishes an update (and claims another) and another process's claim of a redelivered copy of it, at once, both end", async () => {
    // the step's finish holds the update's row and its claim wants the keys; the other
    // claim holds the keys and wants the row: taken in one order by both, neither waits
    // on the other for good (a deadlock would not hang: Postgres fails one of the two)
    const there = createUpdateJournal((await otherProcess()).db, { leaseMs: 60_000 });
    for (let round = 0; round < 20; round++) {
      const here = createUpdateJournal(database.db, { leaseMs: 60_000 });
      const person = nextPerson++;
      const [u, next] = [update(person), update(person)];
      const c = held(await here.claim(u));
      // the finish of u and the claim of the next update travel in one step
      const [, mine, again] = await Promise.all([here.finish(c), here.claim(next), there.claim(u)]);
      expect(again).toBe("taken");
      await here.finish(held(mine));
    }
  });

  /** Backends of this database waiting for an advisory lock. */
  async function advisoryLockWaits(): Promise<number> {
    const [r] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      ),
    );
    return r?.n ?? 0;
  }

  /** A journal whose steps (each one `execute`) are counted, so a test knows when a try was answered. */
  function watchedJournal(
    handle: { db: Database; listen?: Listen | undefined },
    options: Partial<UpdateJournalOptions>,
  ) {
    let steps = 0;
    const db = new Proxy(handle.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== "execute" || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const answer: unknown = await value.apply(target, args);
          steps += 1;
          return answer;
        };
      },
    });
    const journal = createUpdateJournal(db, {
      ...options,
      ...(handle.listen ? { listen: handle.listen } : {}),
    });
    return { journal, steps: () => steps };
  }

  /** Tries of an update waiting its turn ten minutes apart: a claim that comes sooner was woken. */
  const slowJournal = (handle: { db: Database; listen?: Listen | undefined }) =>
    watchedJournal(handle, { leaseMs: 60 * 60_000, minPauseMs: 10 * 60_000, maxPauseMs: 10 * 60_000 });

  /** Claims `u` in turn; `claimed()` says whether it came yet. */
  function claimInTurn(journal: UpdateJournal, u: Update, keys: string[]) {
    let came = false;
    const claim = journal.claimInTurn(u, keys).then((c) => {
      came = true;
      return c;
    });
    return { claim, claimed: () => came };
  }

  /**
   * `second` waits while `first` is held by `holder`; once `waiter` was told to wait
   * (its first try answered), `first` ends: `waiter` must be woken to claim `second`.
   */
  async function wokenAfterWait(holder: UpdateJournal, waiter: ReturnType<typeof slowJournal>) {
    const person = nextPerson++;
    const first = update(person);
    const second = update(person);
    await holder.record([first, second]);
    const a = held(await holder.claim(first));
    const keys = [`chat:${person}`, `user:${person}`];
    const tried = waiter.steps();
    const waiting = claimInTurn(waiter.journal, second, keys);
    await eventually(async () => (waiter.steps() > tried ? true : undefined));
    expect(waiting.claimed()).toBe(false);
    await holder.finish(a);
    // without a wake-up the next try is ten minutes away, and the test times out
    await waiter.journal.finish(held(await waiting.claim));
  }

  test("a waiting update is woken in its process as soon as the one before it ends", async () => {
    const here = slowJournal(database);
    await wokenAfterWait(here.journal, here);
  }, 20_000);

  test("a waiting update is woken from another process (NOTIFY) as soon as the one before it ends there", async () => {
    const here = slowJournal(database);
    const there = slowJournal(await otherProcess());
    try {
      await wokenAfterWait(there.journal, here);
      await wokenAfterWait(here.journal, there);
    } finally {
      await here.journal.close();
      await there.journal.close();
    }
  }, 20_000);

  test("two bots over one database never run one person's updates at once or out of order", async () => {
    const people = Array.from({ length: 4 }, () => nextPerson++);
    const updates = Array.from({ length: 60 }, (_, i) => update(people[i % people.length]));
    const events: { person: number; id: number; at: "start" | "end" }[] = [];
    const bots = [0, 1].map(() => {
      const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
      const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo: testBotInfo });
      bot.use((ctx, next) => {
        ctx.logger = captureLogs().logger;
        return next();
      });
      bot.use(journalUpdates(journal));
      bot.use(async (ctx) => {
        const person = ctx.from?.id ?? 0;
        events.push({ person, id: ctx.update.update_id, at: "start" });
        await new Promise((r) => setTimeout(r, 2 + (ctx.update.update_id % 5)));
        events.push({ person, id: ctx.update.update_id, at: "end" });
      });
      return { bot, journal };
    });
    await bots[0]!.journal.record(updates);
    // every update handed to both bots at once, as two web processes given the same redelivery would be
    await Promise.all(updates.flatMap((u) => bots.map(({ bot }) => bot.handleUpdate(u))));
    for (const person of people) {
      const mine = events.filter((e) => e.person === person);
      const order = mine.filter((e) => e.at === "start").map((e) => e.id);
      expect(order).toEqual(updates.filter((u) => u.message?.from?.id === person).map((u) => u.update_id));
      // start, end, start, end: never two open at once
      expect(mine.map((e) => e.at)).toEqual(order.flatMap(() => ["start", "end"]));
    }
  });
});
