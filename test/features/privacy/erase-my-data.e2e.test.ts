import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { eq, inArray, sql } from "drizzle-orm";
import type { Message } from "grammy/types";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { createErasure } from "../../../src/features/privacy";
import { generations, orphanTasks, payments, userPreferences } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { eventually, generationIn, type Harness, redisUrl, startHarness } from "../../support/harness";
import { appClient } from "../../support/miniapp";
import { freshBucket, testS3Client } from "../../support/object-store";
import { invoiceFor } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const name = { firstName: "Zephyrine", username: "zephy_quill" };
/** words of the user's prompts: none may be found anywhere once their data is erased */
const promptWords = ["quokka", "lanterns", "turquoise", "surfing"];

/**
 * Issue 52, privacy: after "Delete my data" no table, Redis key or stored file
 * holds the user's prompts, name or media; the ledger's audit is clean, and the
 * balance and payments still add up.
 */
describe("Delete my data", () => {
  let h: Harness;
  let bucket: string;
  let redis: Redis;

  beforeAll(async () => {
    const store = await freshBucket();
    bucket = store.settings.bucket;
    // a slow clock (10×): the video is still at the service when the data is erased
    h = await startHarness({
      clockFactor: 10,
      env: { SANDBOX: "1", ...store.env },
      simulator: { latencyMs: { video: 3_600_000 } },
    });
    redis = new Redis(redisUrl);
  }, 60_000);
  afterAll(async () => {
    await redis?.quit();
    await h?.stop();
  });

  /** Every row of every table in the database, as JSON text, one string per table. */
  async function everyTable(): Promise<Record<string, string>> {
    const tables = (await h.db.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { table_name: string }[];
    const out: Record<string, string> = {};
    for (const { table_name } of tables) {
      const rows = (await h.db.db.execute(
        sql`select coalesce(json_agg(t)::text, '') as j from ${sql.identifier(table_name)} t`,
      )) as unknown as { j: string }[];
      out[table_name] = rows[0]?.j ?? "";
    }
    return out;
  }

  /** Every value under the runtime's Redis prefix (strings, hashes, lists, sets, sorted sets), as text. */
  async function everyRedisValue(): Promise<string> {
    const keys = await redis.keys(`${h.config.redis.prefix}*`);
    const parts: string[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      if (type === "string") parts.push(String(await redis.get(key)));
      else if (type === "hash") parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === "list") parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === "set") parts.push(JSON.stringify(await redis.smembers(key)));
      else if (type === "zset") parts.push(JSON.stringify(await redis.zrange(key, "0", "-1")));
      else if (type === "stream") parts.push(JSON.stringify(await redis.xrange(key, "-", "+")));
    }
    return parts.join("\n");
  }

  /** What the service billed for the user's requests. */
  async function serviceCredits(userId: number): Promise<number> {
    const [row] = (await h.db.db.execute(
      sql`select coalesce(sum(service_credits), 0)::int as credits from generations where user_id = ${userId}`,
    )) as unknown as { credits: number }[];
    return row?.credits ?? 0;
  }

  async function bucketKeys(): Promise<string[]> {
    const listed = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucket }));
    return (listed.Contents ?? []).map((o) => o.Key ?? "");
  }

  /** The needles found in `text`, ignoring case. */
  const found = (text: string, needles: readonly string[]) =>
    needles.filter((n) => text.toLowerCase().includes(n.toLowerCase()));

  /** A new user named `firstName` who started the bot and got a picture of `prompt`: its generation, delivered. */
  async function withPicture(firstName: string, prompt: string) {
    const user = h.tg.user({ firstName, language: "en" });
    const hello = await user.send("/start");
    await user.waitFor((m) => Boolean(m.text), { after: hello });
    const image = await user.send(`/image ${prompt}`);
    await press(user, /Confirm/, image);
    return { user, g: await generationIn(h, user.id, "delivered", 30_000) };
  }

  async function press(user: TestUser, label: RegExp, after: Message): Promise<BotMessage> {
    const message = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => label.test(b.text)) ?? false,
      { after },
    );
    await user.press(label, { message });
    return message;
  }

  test("erases prompts, names, inputs and results everywhere; the books still add up", async () => {
    const user = h.tg.user({ ...name, language: "en" });
    const hello = await user.send("/start");
    await user.waitFor((m) => Boolean(m.text), { after: hello });

    // a pack bought with (test) Stars
    const invoice = await invoiceFor(user, 50);
    const paid = await user.pay(invoice);
    expect(paid.ok).toBe(true);
    await user.waitFor((m) => m.text === en("buy-paid-test", { credits: 50, available: 150 }));

    // a picture, delivered (its copy in the bucket)
    const image = await user.send("/image a quokka carrying paper lanterns");
    await press(user, /Confirm/, image);
    await user.waitFor((m) => Boolean(m.photo), { after: image, timeoutMs: 30_000 });
    await generationIn(h, user.id, "delivered", 30_000);
    // an edit of the user's own photo (kept as an input in the bucket)
    const own = await user.sendPhoto({ width: 640, height: 640 });
    const fileIds = (own.photo ?? []).map((p) => p.file_id);
    expect(fileIds.length).toBeGreaterThan(0);
    const edit = await user.replyTo(own, "/edit make the quokka turquoise");
    await press(user, /Confirm/, edit);
    await eventually(async () => {
      const rows = await h.db.db.select().from(generations).where(eq(generations.userId, user.id));
      return rows.filter((g) => g.state === "delivered").length === 2 ? true : undefined;
    }, 30_000);
    // a video still at the service
    const video = await user.send("/video a quokka surfing at dawn");
    await press(user, /Confirm/, video);
    await generationIn(h, user.id, "pending", 30_000);

    const before = await h.runtime.ledger.account(user.id);
    expect(before.held).toBeGreaterThan(0);
    expect(
      await h.db.db.select().from(userPreferences).where(eq(userPreferences.userId, user.id)),
    ).not.toEqual([]);
    // the search finds what is there before the erasure
    const needles = [...promptWords, name.firstName, name.username, ...fileIds];
    const tablesBefore = Object.values(await everyTable()).join("\n");
    expect(found(tablesBefore, needles)).toEqual(expect.arrayContaining(["quokka", name.firstName]));
    expect(found(tablesBefore, fileIds).length).toBeGreaterThan(0);
    const keysBefore = await bucketKeys();
    expect(keysBefore.length).toBeGreaterThan(0);

    // a conversation still waiting for its prompt (its stored state holds the updates: names, texts)
    const waiting = await user.send("/image");
    await user.waitFor((m) => Boolean(m.text), { after: waiting });

    const billedBefore = await serviceCredits(user.id);
    expect(billedBefore).toBeGreaterThan(0);
    const mine = await h.db.db.select().from(generations).where(eq(generations.userId, user.id));
    const taskIds = mine.map((g) => g.taskId ?? `erased-${g.id}`);

    // /privacy → Delete my data → asked once more → Yes
    const asked = await user.send("/privacy");
    const policy = await user.waitFor((m) => m.text?.startsWith("🔒") ?? false, { after: asked });
    expect(policy.text).toContain(en("privacy-delete-hint"));
    const question = await press(user, /Delete my data/, asked);
    await press(user, /Yes, delete everything/, question);
    const told = await user.waitFor((m) => m.text?.startsWith("✅") ?? false, { after: question });
    const files = filesIn(told.text ?? "");
    // every object the bucket held was this user's: a result or a kept input
    expect(files).toBe(keysBefore.length);
    expect(told.text).toBe(en("privacy-deleted", { requests: 3, files, cancelled: 1 }));

    // every update handled (the journal drops a payload once its update is done), then the search
    await eventually(async () => {
      const [row] = (await h.db.db.execute(
        sql`select count(*)::int as n from processed_updates where payload is not null`,
      )) as unknown as { n: number }[];
      return row?.n === 0 ? true : undefined;
    });
    // no conversation of the user's is left, nor written back by the update that erased it
    const conversations = (await h.db.db.execute(
      sql`select key from kv_store where key like ${`conversation:%:${user.id}`}`,
    )) as unknown as { key: string }[];
    expect(conversations).toEqual([]);
    const tables = await everyTable();
    const left = Object.entries(tables).flatMap(([table, text]) =>
      found(text, needles).map((n) => `${table}: ${n}`),
    );
    expect(left).toEqual([]);
    expect(found(await everyRedisValue(), needles)).toEqual([]);
    const keys = await bucketKeys();
    expect(keys).toEqual([]);

    // what the service billed for the erased requests stays in the books, as tasks of no request
    const orphans = await h.db.db.select().from(orphanTasks).where(inArray(orphanTasks.taskId, taskIds));
    expect(orphans.reduce((sum, o) => sum + (o.serviceCredits ?? 0), 0)).toBe(billedBefore);
    expect(JSON.stringify(orphans)).not.toContain(user.id.toString());

    // the books: the audit is clean; the hold came back; the purchase and its credits are still there
    expect(await h.runtime.ledger.audit()).toEqual([]);
    const after = await h.runtime.ledger.account(user.id);
    expect(after).toMatchObject({ held: 0, available: before.available + before.held });
    const paidRows = await h.db.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(paidRows).toHaveLength(1);
    expect(paidRows[0]).toMatchObject({ credits: 50, totalAmount: 50, state: "paid" });
    const [sums] = (await h.db.db.execute(
      sql`select coalesce(sum(delta_available), 0)::int as available, coalesce(sum(delta_held), 0)::int as held from ledger_entries where user_id = ${user.id}`,
    )) as unknown as { available: number; held: number }[];
    expect(sums).toEqual({ available: after.available, held: 0 });
  }, 120_000);

  test("the Mini App's Delete my data: refused without confirm; with it, the same erasure and words as the chat's", async () => {
    const { user } = await withPicture("Ottoline", "an okapi under a paper moon");
    const app = appClient(h, user);

    const unconfirmed = await app.post("/privacy/erase", {});
    expect(unconfirmed.status).toBe(400);
    expect(await h.db.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(1);

    const erased = await app.post<{ requests: number; files: number; cancelled: number; message: string }>(
      "/privacy/erase",
      { confirm: true },
    );
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ requests: 1, cancelled: 0 });
    expect(erased.body.files).toBeGreaterThan(0);
    expect(erased.body.message).toBe(en("privacy-deleted", { ...erased.body }));
    expect(await h.db.db.select().from(generations).where(eq(generations.userId, user.id))).toEqual([]);
    const tables = Object.values(await everyTable()).join("\n");
    expect(found(tables, ["okapi", "Ottoline"])).toEqual([]);
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  test("a result still being sent: the erasure waits for it, answers busy and erases nothing; once it arrived, erases", async () => {
    const { user, g } = await withPicture("Wilhelmina", "a heron in the reeds");
    // as if a worker were sending it right now
    await h.db.db.update(generations).set({ state: "delivering" }).where(eq(generations.id, g.id));
    const erasure = createErasure({
      db: h.runtime.db,
      redis,
      prefix: h.config.redis.prefix,
      store: h.runtime.store,
      generations: h.runtime.generations,
      settleMs: 300,
    });
    const account = await h.runtime.ledger.account(user.id);
    expect(await erasure.erase(user.id)).toBe("busy");
    expect(await h.db.db.select().from(generations).where(eq(generations.id, g.id))).toHaveLength(1);
    expect(found(Object.values(await everyTable()).join("\n"), ["heron", "Wilhelmina"])).toEqual([
      "heron",
      "Wilhelmina",
    ]);
    // not refunded: the result is on its way to the user
    expect(await h.runtime.ledger.account(user.id)).toEqual(account);

    await h.db.db.update(generations).set({ state: "delivered" }).where(eq(generations.id, g.id));
    expect(await erasure.erase(user.id)).toMatchObject({ requests: 1, cancelled: 0 });
    expect(found(Object.values(await everyTable()).join("\n"), ["heron", "Wilhelmina"])).toEqual([]);
  });
});

/** The number of stored files the erasure message names. */
function filesIn(text: string): number {
  return Number(/(\d+) stored files/.exec(text)?.[1] ?? Number.NaN);
}
