import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import {
  broadcasts,
  generations,
  holds,
  kvStore,
  ledgerEntries,
  payments,
  users,
} from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../../support/harness";

/** The first user a fresh stand-in makes has this id: the admin of these tests. */
const adminId = 5_000_000_001;
/** An admin whose chat Telegram does not know at start-up (the second stand-in user, made after it). */
const lateAdminId = 5_000_000_002;
/** An admin who never started the bot: Telegram refuses a menu for their chat. */
const absentAdminId = 999;
const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

describe("admin commands end to end", () => {
  let h: Harness;
  let admin: TestUser;
  let lateAdmin: TestUser;
  const logs: string[] = [];
  let usernames = 0;

  /** A user who sent /start, with a username of their own. */
  async function namedUser(language = "en") {
    const user = h.tg.user({ language, username: `someone_${++usernames}_${Date.now() % 100_000}` });
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    return user;
  }

  /** Sends `text` and returns the bot's first message after it. */
  async function ask(user: TestUser, text: string): Promise<BotMessage> {
    const sent = await user.send(text);
    return user.waitFor((m) => Boolean(m.text), { after: sent });
  }

  const balance = (userId: number) => h.runtime.ledger.account(userId);

  /** `/image <prompt>`, Confirm on the offer it brings, and its generation once it is `state`. */
  async function imageIn(user: TestUser, prompt: string, state: string) {
    const before = (await h.runtime.generations.recent(user.id, 50)).length;
    const sent = await user.send(`/image ${prompt}`);
    const offer = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
      { after: sent },
    );
    await user.press(/✅/, { message: offer });
    await eventually(async () =>
      (await h.runtime.generations.recent(user.id, 50)).length > before ? true : undefined,
    );
    return generationIn(h, user.id, state);
  }

  beforeAll(async () => {
    h = await startHarness({
      noRuntime: true,
      env: { ADMIN_IDS: `${adminId},${lateAdminId},${absentAdminId}`, LOG_LEVEL: "info" },
      logs,
    });
    // the admin started the bot before this run, so the start-up can set their menu
    admin = h.tg.user({ started: true });
    expect(admin.id).toBe(adminId);
    await h.startRuntime();
    lateAdmin = h.tg.user();
    expect(lateAdmin.id).toBe(lateAdminId);
    await admin.send("/start");
    await admin.waitFor((m) => Boolean(m.text));
  }, 60_000);
  // No error-level line (pino: 50 error, 60 fatal) in the whole file, whatever order the tests
  // run in: each test answers for the lines logged since the previous check (the first one, for
  // the start-up's too), and the end of the file for what came after the last test.
  let logsChecked = 0;
  function expectNoErrorLogged() {
    const fresh = logs.slice(logsChecked);
    logsChecked = logs.length;
    expect(fresh.filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
  }
  afterEach(expectNoErrorLogged);
  afterAll(async () => {
    try {
      expectNoErrorLogged();
    } finally {
      await h?.stop();
    }
  });

  test("a non-admin sending every admin command gets the unknown-command answer and changes nothing", async () => {
    const outsider = await namedUser();
    const victim = await namedUser();
    // a real payment of the victim's, for /refund to name
    const chargeId = `admin-test-charge-${victim.id}`;
    const paid = await h.runtime.payments.recordPaid({
      userId: victim.id,
      telegramChargeId: chargeId,
      currency: "XTR",
      totalAmount: 50,
      credits: 50,
      payload: "pack:test",
      source: "update",
      test: true,
    });
    expect(paid.applied).toBe(true);
    const snapshot = async () => ({
      payments: await h.db.db.select().from(payments).orderBy(payments.telegramChargeId),
      entries: await h.db.db.select().from(ledgerEntries).orderBy(ledgerEntries.id),
      banned: await h.db.db
        .select({ id: users.id, bannedAt: users.bannedAt })
        .from(users)
        .where(sql`${users.bannedAt} is not null`),
      broadcasts: await h.db.db.select().from(broadcasts),
      kv: await h.db.db.select({ key: kvStore.key, value: kvStore.value }).from(kvStore).orderBy(kvStore.key),
    });
    const before = await snapshot();
    const commands = [
      "/stats",
      `/user ${victim.id}`,
      `/user @${victim.info.username}`,
      `/grant ${victim.id} 500 a gift`,
      `/grant ${outsider.id} 1000000`,
      `/grant ${victim.id} -50 taking`,
      `/ban ${victim.id}`,
      `/unban ${victim.id}`,
      "/broadcast",
      "/broadcast_cancel",
      `/refund ${chargeId}`,
      "/refund",
      "/stats@media_studio_test_bot",
    ];
    const first = await outsider.send("/help");
    await outsider.waitFor((m) => Boolean(m.text), { after: first });
    const start = outsider.messages().at(-1)!.message_id;
    for (const command of commands) {
      const answer = await ask(outsider, command);
      expect(answer.text, command).toBe(en("fallback-unknown"));
      expect(answer.reply_markup, command).toBeUndefined();
    }
    // nothing more than one answer each arrives later
    await new Promise((r) => setTimeout(r, 300));
    const answers = outsider.messages().filter((m) => m.message_id > start);
    expect(answers.map((m) => m.text)).toEqual(commands.map(() => en("fallback-unknown")));
    expect(await snapshot()).toEqual(before);
    expect(await balance(victim.id)).toMatchObject({ available: 150, held: 0 });
    expect(
      h.tg.callsOf("refundStarPayment").filter((c) => c.params.telegram_payment_charge_id === chargeId),
    ).toEqual([]);
  });

  test("/grant adds credits once however often Confirm is tapped; a negative one takes only what is there", async () => {
    const target = await namedUser();
    const question = await ask(admin, `/grant ${target.id} 50 welcome back`);
    expect(question.text).toContain(
      en("grant-ask-add", { credits: 50, user: `${target.id} (@${target.info.username})`, available: 100 }),
    );
    expect(question.text).toContain("welcome back");

    // two taps before the first is answered: both presses find the button
    const [first, second] = await Promise.all([
      admin.press(/✅/, { message: question }),
      admin.press(/✅/, { message: question }),
    ]);
    const answers = await Promise.all([admin.waitForAnswer(first), admin.waitForAnswer(second)]);
    const texts = answers.map((a) => a.text ?? "");
    expect(texts.filter((t) => t.startsWith("✅ Gave 50 credits"))).toHaveLength(1);
    expect(texts.filter((t) => t === en("grant-already"))).toHaveLength(1);
    await admin.waitFor(
      (m) => m.message_id === question.message_id && Boolean(m.text?.startsWith("✅ Gave 50")),
    );
    // a third tap, later, on the (now plain) message's old data: still once
    expect(await balance(target.id)).toMatchObject({ available: 150, held: 0 });
    const grants = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, target.id), eq(ledgerEntries.kind, "grant")));
    expect(grants.map((g) => g.deltaAvailable).sort()).toEqual([100, 50]);
    expect(grants.find((g) => g.deltaAvailable === 50)?.note).toBe(`admin ${adminId}: welcome back`);

    // more than the balance: takes the 150 that are there and says 350 could not be taken
    const take = await ask(admin, `/grant @${target.info.username} -500 abuse of the service`);
    expect(take.text).toContain(
      en("grant-ask-take-partly", {
        credits: 500,
        user: `${target.id} (@${target.info.username})`,
        available: 150,
      }),
    );
    const tap = await admin.press(/✅/, { message: take });
    expect((await admin.waitForAnswer(tap)).text).toContain("350 could not be taken");
    const done = await admin.waitFor(
      (m) => m.message_id === take.message_id && Boolean(m.text?.startsWith("✅ Took")),
    );
    expect(done.text).toBe(
      `${en("grant-done-partly", {
        credits: 150,
        missing: 350,
        user: `${target.id} (@${target.info.username})`,
        available: 0,
      })}\n${en("grant-told")}`,
    );
    expect(await balance(target.id)).toMatchObject({ available: 0, held: 0 });
    const adjustments = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, target.id), eq(ledgerEntries.kind, "adjustment")));
    expect(adjustments.map((a) => a.deltaAvailable)).toEqual([-150]);

    // ✖ changes nothing, and a Confirm after it neither
    const cancelled = await ask(admin, `/grant ${target.id} 10 maybe`);
    await admin.waitForAnswer(await admin.press(/✖/, { message: cancelled }));
    await admin.waitFor((m) => m.message_id === cancelled.message_id && m.text === en("grant-cancelled"));
    expect(await balance(target.id)).toMatchObject({ available: 0, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: target.id })).toEqual([]);
  });

  /** `/grant …` (or `/grant …` replying to `replyTo`), Confirm: the admin's outcome message. */
  async function grantConfirmed(
    command: string,
    replyTo?: BotMessage | Awaited<ReturnType<TestUser["send"]>>,
  ) {
    const sent = replyTo ? await admin.send(command, { replyTo }) : await admin.send(command);
    const question = await admin.waitFor(
      (m) =>
        Boolean(
          m.reply_markup?.inline_keyboard
            .flat()
            .some((b) => "callback_data" in b && b.callback_data?.startsWith("ag:")),
        ),
      { after: sent },
    );
    await admin.waitForAnswer(await admin.press(/✅/, { message: question }));
    return admin.waitFor((m) => m.message_id === question.message_id && !m.reply_markup);
  }

  /** Forwards `original` to the bot as the admin, and waits for whatever the bot answers to it. */
  async function forwarded(original: Awaited<ReturnType<TestUser["send"]>>, hiddenSender = false) {
    const copy = await admin.forwardToBot(original, { hiddenSender });
    await admin.waitFor((m) => Boolean(m.text), { after: copy });
    return copy;
  }

  test("/grant finds the user by first name or by a forwarded message, and tells them in their language", async () => {
    const firstName = `Quinn${Date.now() % 100_000}`;
    const target = h.tg.user({ language: "fa", firstName, username: `quinn_${Date.now() % 100_000}` });
    const start = await target.send("/start");
    await target.waitFor((m) => Boolean(m.text), { after: start });
    const hello = await target.send("hello there");
    await target.waitFor((m) => Boolean(m.text), { after: hello });
    const label = `${target.id} (@${target.info.username})`;

    const byName = await grantConfirmed(`/grant ${firstName.toLowerCase()} 100`);
    expect(byName.text).toBe(
      `${en("grant-done-added", { user: label, credits: 100, available: 200 })}\n${en("grant-told")}`,
    );
    // the recipient hears of it in Persian, with the balance it left
    await target.waitFor(
      (m) => m.text === translate("fa", "grant-notice-added", { credits: 100, available: 200 }),
    );

    // a message of theirs forwarded to the bot; /grant <credits> in reply to it
    const fromTarget = await forwarded(hello);
    const byForward = await grantConfirmed("/grant 5 thanks", fromTarget);
    expect(byForward.text).toContain(en("grant-done-added", { user: label, credits: 5, available: 205 }));
    expect(await balance(target.id)).toMatchObject({ available: 205, held: 0 });

    // /user by a forwarded message too
    const report = await ask(admin, "/user");
    expect(report.text).toBe(en("user-usage"));
    const sent = await admin.send("/user", { replyTo: fromTarget });
    const about = await admin.waitFor((m) => Boolean(m.text), { after: sent });
    expect(about.text).toContain(label);
  });

  test("/grant to a user who blocked the bot: the credits move, the admin learns they were not told", async () => {
    const target = await namedUser();
    await target.block();
    const done = await grantConfirmed(`/grant ${target.id} 7`);
    expect(done.text).toBe(
      `${en("grant-done-added", { user: `${target.id} (@${target.info.username})`, credits: 7, available: 107 })}\n${en("grant-not-told")}`,
    );
    expect(await balance(target.id)).toMatchObject({ available: 107, held: 0 });
  });

  test("names that match several users or none, and hidden forwards, get an answer saying what to use", async () => {
    const stamp = Date.now() % 100_000;
    const twins = [
      h.tg.user({ firstName: `Robin${stamp}`, username: `robin_a_${stamp}` }),
      h.tg.user({ firstName: `Robin${stamp}` }),
    ];
    for (const twin of twins) {
      const sent = await twin.send("/start");
      await twin.waitFor((m) => Boolean(m.text), { after: sent });
    }
    const several = await ask(admin, `/grant Robin${stamp} 10`);
    expect(several.text).toContain(en("admin-several-users", { count: 2, given: `Robin${stamp}` }));
    for (const twin of twins) expect(several.text).toContain(String(twin.id));
    expect(several.text).toContain(`@robin_a_${stamp}`);
    expect(several.reply_markup).toBeUndefined();

    // "@robin" is no one's username: the usernames that start with it are offered
    const none = await ask(admin, `/ban @robin_${stamp}`);
    expect(none.text).toBe(
      `${en("admin-unknown-user", { given: `@robin_${stamp}` })}\n${en("admin-target-ways")}`,
    );
    const like = await ask(admin, "/grant @robin 10");
    expect(like.text).toContain(en("admin-did-you-mean"));
    expect(like.text).toContain(`@robin_a_${stamp} · ${twins[0]!.id}`);

    // a forward from someone who hides their account carries only a name
    const hidden = await forwarded(await twins[0]!.send("hi"), true);
    const sent = await admin.send("/grant 10", { replyTo: hidden });
    const answer = await admin.waitFor((m) => Boolean(m.text), { after: sent });
    expect(answer.text).toBe(en("admin-hidden-user", { given: `Robin${stamp}` }));
    for (const twin of twins) expect(await balance(twin.id)).toMatchObject({ available: 100, held: 0 });
  });

  test("/grant with bad input: a clear answer, no buttons, nothing changed", async () => {
    const target = await namedUser();
    const entriesBefore = await h.db.db.$count(ledgerEntries);
    const kvBefore = await h.db.db.$count(kvStore);
    const cases: Array<[string, string]> = [
      ["/grant", en("grant-problem-usage")],
      [`/grant ${target.id}`, en("grant-problem-usage")],
      [`/grant ${target.id} ten`, en("grant-problem-amount")],
      [`/grant ${target.id} 1.5`, en("grant-problem-amount")],
      [`/grant ${target.id} 1e6`, en("grant-problem-amount")],
      [`/grant ${target.id} 0`, en("grant-problem-zero")],
      [`/grant ${target.id} 99999999999999999999999`, en("grant-problem-amount")],
      [`/grant ${target.id} 1000001 too much`, en("grant-problem-too-large", { max: 1_000_000 })],
      [`/grant ${target.id} -5`, en("grant-problem-reason-required")],
      [`/grant ${target.id} 5 ${"x".repeat(201)}`, en("grant-problem-reason-too-long")],
      ["/grant 424242424242 5 nobody", en("admin-unknown-user", { given: "424242424242" })],
      ["/grant @nobody_here_at_all 5", en("admin-unknown-user", { given: "@nobody_here_at_all" })],
      ["/grant ';drop 5", en("admin-unknown-user", { given: "';drop" })],
      ["/grant 5000000001x 5", en("admin-unknown-user", { given: "5000000001x" })],
    ];
    for (const [command, expected] of cases) {
      const answer = await ask(admin, command);
      expect(answer.text, command).toContain(expected);
      expect(answer.reply_markup, command).toBeUndefined();
    }
    expect(await h.db.db.$count(ledgerEntries)).toBe(entriesBefore);
    expect(await h.db.db.$count(kvStore)).toBe(kvBefore);
    expect(await balance(target.id)).toMatchObject({ available: 100, held: 0 });
  });

  test("a banned user cannot spend: queued work cancelled and released, presses and commands refused; /unban restores", async () => {
    const victim = await namedUser();
    // queued and not yet handed to the workers, as after a crash between create and enqueue
    const created = await h.runtime.generations.create({
      key: `admin-test-queued-${victim.id}`,
      userId: victim.id,
      language: "en",
      chat: { chatId: victim.id },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
      deferSubmit: true,
    });
    if (!created.ok) throw new Error("the queued generation was not created");
    const quote = createPrices(loadPriceTable()).image("nano-core-2", undefined, 1);
    const price = quote.ok ? quote.credits : Number.NaN;
    expect(await balance(victim.id)).toMatchObject({ available: 100 - price, held: price });

    // an offer open in a conversation when the ban comes
    await victim.send("/image a lighthouse");
    const offer = await victim.waitFor((m) =>
      m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
    );

    const banned = await ask(admin, `/ban ${victim.id}`);
    expect(banned.text).toBe(
      `${en("ban-done", { user: `${victim.id} (@${victim.info.username})` })}\n${en("ban-cancelled", { count: 1, credits: price })}`,
    );
    const [row] = await h.db.db.select().from(generations).where(eq(generations.id, created.generation.id));
    expect(row?.state).toBe("cancelled");
    const [hold] = await h.db.db.select().from(holds).where(eq(holds.key, created.generation.holdKey));
    expect(hold?.state).toBe("released");
    expect(await balance(victim.id)).toMatchObject({ available: 100, held: 0 });
    // the user's status message says it was cancelled
    await victim.waitFor((m) => m.text === en("cancel-status"));

    // the conversation cannot go on: Confirm gets the polite answer and creates nothing
    const press = await victim.press(/✅/, { message: offer });
    expect((await victim.waitForAnswer(press)).text).toBe(en("banned-notice"));
    for (const text of ["/image a harbour", "/balance", "hello", "/start"]) {
      expect((await ask(victim, text)).text, text).toBe(en("banned-notice"));
    }
    const inline = victim.inlineQuery("a cat");
    expect(await victim.waitForInlineAnswer(inline)).toMatchObject({ results: [] });
    const mine = await h.runtime.generations.recent(victim.id);
    expect(mine.map((g) => g.state)).toEqual(["cancelled"]);
    expect(await balance(victim.id)).toMatchObject({ available: 100, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: victim.id })).toEqual([]);

    // /ban of an admin is refused; /user shows the ban
    expect((await ask(admin, `/ban ${adminId}`)).text).toContain("cannot be banned");
    expect((await ask(admin, `/user @${victim.info.username}`)).text).toContain("🚫 Banned since");

    const lifted = await ask(admin, `/unban @${victim.info.username}`);
    expect(lifted.text).toBe(en("unban-done", { user: `${victim.id} (@${victim.info.username})` }));
    await imageIn(victim, "a harbour after the ban", "delivered");
    expect(await h.runtime.ledger.audit({ userId: victim.id })).toEqual([]);
  });

  test("/user shows the balance, the ledger, the requests and the ban state", async () => {
    const user = await namedUser("fa");
    await h.runtime.ledger.hold({ userId: user.id, amount: 7, key: `admin-test-hold-${user.id}` });
    const report = await ask(admin, `/user ${user.id}`);
    expect(report.text).toContain(en("user-balance", { available: 93, held: 7 }));
    expect(report.text).toContain(en("user-not-banned"));
    expect(report.text).toContain("grant +100");
    expect(report.text).toContain("hold -7");
    expect((await ask(admin, "/user")).text).toBe(en("user-usage"));
  });

  test("/stats figures match the database after generations, a grant and a failure", async () => {
    const maker = await startedUser(h);
    await imageIn(maker, "one", "delivered");
    await imageIn(maker, "two", "delivered");
    const unlucky = await startedUser(h);
    h.sim.faults.nextTask({ fail: true });
    await imageIn(unlucky, "doomed", "failed");
    const lucky = await startedUser(h);
    const question = await ask(admin, `/grant ${lucky.id} 30 contest prize`);
    await admin.waitForAnswer(await admin.press(/✅/, { message: question }));
    await eventually(async () => ((await balance(lucky.id)).available === 130 ? true : undefined));
    // a generation whose delivery is still being finished would move the figures under us
    await eventually(async () =>
      (await h.db.db.$count(
        generations,
        sql`${generations.state} in ('queued','submitting','pending','completed','delivering')`,
      )) === 0
        ? true
        : undefined,
    );

    const message = await ask(admin, "/stats");
    const text = message.text ?? "";

    // the same figures, by other roads: the holds table for money, plain counts for the rest
    const one = async (query: ReturnType<typeof sql>) => {
      const rows = (await h.db.db.execute(query)) as unknown as Array<{ n: string | number | null }>;
      return Number(rows[0]?.n ?? 0);
    };
    const usersFig = {
      total: await one(sql`select count(*) as n from users`),
      active1: await one(sql`select count(*) as n from users where last_seen_at > now() - interval '1 day'`),
      active7: await one(sql`select count(*) as n from users where last_seen_at > now() - interval '7 days'`),
      active30: await one(
        sql`select count(*) as n from users where last_seen_at > now() - interval '30 days'`,
      ),
      blocked: await one(sql`select count(*) as n from users where blocked_at is not null`),
      banned: await one(sql`select count(*) as n from users where banned_at is not null`),
    };
    expect(text).toContain(en("stats-users", usersFig));

    const credits = {
      granted: await one(sql`select sum(delta_available) as n from ledger_entries where kind = 'grant'`),
      sold: await one(sql`select sum(credits) as n from payments`),
      adjusted: await one(
        sql`select sum(delta_available) as n from ledger_entries where kind = 'adjustment'`,
      ),
      held: await one(sql`select sum(amount) as n from credit_holds where state = 'open'`),
      charged: await one(sql`select sum(charged_amount) as n from credit_holds where state = 'charged'`),
      refunded: await one(sql`select sum(refunded_amount) as n from credit_holds`),
    };
    expect(credits.granted).toBeGreaterThanOrEqual(30 + 100 * 3);
    expect(credits.charged).toBeGreaterThanOrEqual(8);
    expect(text).toContain(en("stats-credits", credits));

    const spent = await one(
      sql`select sum(service_credits) as n from generations where state in ('completed','delivering','delivered')`,
    );
    const orphans = await one(sql`select sum(service_credits) as n from orphan_tasks`);
    const orphanTasks = await one(sql`select count(*) as n from orphan_tasks`);
    expect(spent).toBeGreaterThan(0);
    expect(text).toContain(en("stats-service", { spent, orphanCredits: orphans, orphanTasks }));
    const margin = credits.charged - credits.refunded - spent - orphans;
    expect(text).toContain(
      en("stats-margin", { margin, percent: Math.round((margin / credits.charged) * 100) }),
    );
    expect(text).toContain(en("stats-margin-note"));

    // every operation's line, all time, with each state's count
    const perState = (await h.db.db.execute(
      sql`select operation, state, count(*) as n from generations group by operation, state`,
    )) as unknown as Array<{ operation: string; state: string; n: string }>;
    const failedImages = perState.find((r) => r.operation === "image" && r.state === "failed");
    expect(Number(failedImages?.n)).toBeGreaterThanOrEqual(1);
    const allTime = text.split(en("stats-generations-all"))[1]?.split("\n\n")[0] ?? "";
    for (const r of perState) {
      expect(allTime).toContain(`${en(`stats-state-${r.state}`)} ${r.n}`);
    }
    const imageTotal = perState.filter((r) => r.operation === "image").reduce((s, r) => s + Number(r.n), 0);
    expect(allTime).toContain(`${en("op-image")}: ${imageTotal} — `);
    // everything here happened today (UTC) and within 7 days
    const today = text.split(en("stats-generations-today"))[1]?.split("\n\n")[0] ?? "";
    expect(today).toContain(`${en("op-image")}: ${imageTotal} — `);
  }, 60_000);

  test("command menus: each admin's chat has the admin commands; the default and other scopes do not", async () => {
    const adminOnly = [
      "stats",
      "user",
      "grant",
      "refund",
      "ban",
      "unban",
      "promo",
      "broadcast",
      "broadcast_cancel",
    ];
    const calls = h.tg
      .callsOf("setMyCommands")
      .map((c) => c.params as { scope?: unknown; language_code?: string; commands?: unknown });
    const parse = (raw: unknown) =>
      (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, unknown> | undefined;
    const scopeOf = (c: (typeof calls)[number]) => parse(c.scope) ?? { type: "default" };
    const namesOf = (c: (typeof calls)[number]) =>
      ((parse(c.commands) as unknown as Array<{ command: string }>) ?? []).map((x) => x.command);

    const adminCalls = calls.filter((c) => scopeOf(c).type === "chat" && scopeOf(c).chat_id === adminId);
    expect(adminCalls.map((c) => c.language_code ?? "").sort()).toEqual(["", "fa"]);
    for (const c of adminCalls)
      expect(namesOf(c)).toEqual(expect.arrayContaining([...adminOnly, "image", "start"]));
    const others = calls.filter((c) => scopeOf(c).type !== "chat");
    expect(new Set(others.map((c) => scopeOf(c).type))).toEqual(
      new Set(["default", "all_private_chats", "all_group_chats", "all_chat_administrators"]),
    );
    for (const c of others) for (const name of adminOnly) expect(namesOf(c)).not.toContain(name);
    // groups get what works there: requests, balance, help, cancel
    const group = others.find((c) => scopeOf(c).type === "all_group_chats" && !c.language_code);
    expect(namesOf(group!).sort()).toEqual(["balance", "cancel", "dub", "edit", "help", "image", "video"]);

    // as the clients show them
    expect(admin.commandMenu().map((c) => c.command)).toEqual(expect.arrayContaining(adminOnly));
    expect(admin.commandMenu().find((c) => c.command === "grant")?.description).toBe(en("cmd-grant"));
    const persianAdminMenu = h.tg.commandMenu(adminId, { language: "fa" });
    expect(persianAdminMenu.find((c) => c.command === "stats")?.description).toBe(
      translate("fa", "cmd-stats"),
    );
    const someone = h.tg.user({ language: "fa" });
    expect(someone.commandMenu().map((c) => c.command)).not.toContain("stats");
    expect(
      h.tg
        .user()
        .commandMenu()
        .map((c) => c.command),
    ).toEqual(expect.arrayContaining(["image", "balance"]));
    // an admin unknown to Telegram at start-up gets the menu at their first update
    expect(lateAdmin.commandMenu().map((c) => c.command)).not.toContain("stats");
    await lateAdmin.send("/start");
    await lateAdmin.waitFor((m) => Boolean(m.text));
    await eventually(async () =>
      lateAdmin.commandMenu().some((c) => c.command === "stats") ? true : undefined,
    );
    expect(
      h.tg.commandMenu(lateAdminId, { language: "fa" }).find((c) => c.command === "ban")?.description,
    ).toBe(translate("fa", "cmd-ban"));
    // the admin who never started the bot: logged, the others' menus set all the same
    expect(
      logs.some(
        (l) => l.includes("could not set an admin's command menu") && l.includes(String(absentAdminId)),
      ),
    ).toBe(true);
  });
});
