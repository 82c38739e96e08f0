import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import { createUsers, type Users } from "../../../src/domain/users/users";
import { chats, users as usersTable } from "../../../src/platform/db/schema";
import { languageFromCode } from "../../../src/platform/i18n/language";
import { createTestDatabase, type TestDatabase } from "../../support/db";

let database: TestDatabase;
let ledger: Ledger;
let users: Users;
let nextId = 7_000_000;
const newId = () => ++nextId;

beforeAll(async () => {
  database = await createTestDatabase();
  ledger = createLedger(database.db);
  users = createUsers(database.db, ledger, { welcomeCredits: 20 });
});
afterAll(async () => {
  await database?.drop();
});

describe("languageFromCode", () => {
  test.each([
    ["fa", "fa"],
    ["fa-IR", "fa"],
    ["FA", "fa"],
    ["en", "en"],
    ["de", "en"],
    [undefined, "en"],
    ["", "en"],
  ] as const)("%s → %s", (code, language) => {
    expect(languageFromCode(code)).toBe(language);
  });
});

describe("users", () => {
  test("touch registers a new user with the language of their Telegram client", async () => {
    const id = newId();
    const user = await users.touch({ id, first_name: "Sara", username: "sara", language_code: "fa" });
    expect(user).toMatchObject({ id, firstName: "Sara", username: "sara", language: "fa", blockedAt: null });
    expect(await users.get(id)).toMatchObject({ id, language: "fa" });
  });

  test("touch updates names and last_seen, and keeps a chosen language", async () => {
    const id = newId();
    const first = await users.touch({ id, first_name: "Ali", language_code: "fa" });
    // the client's language is no choice; setLanguage records that one was made (the menu follows it)
    expect(first.languageChosenAt).toBeNull();
    expect(await users.setLanguage(id, "en")).toBe(true);
    const again = await users.touch({ id, first_name: "Ali R.", username: "alir", language_code: "fa" });
    expect(again).toMatchObject({ firstName: "Ali R.", username: "alir", language: "en" });
    expect(again.languageChosenAt).toBeInstanceOf(Date);
    expect(again.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first.lastSeenAt.getTime());
    expect(again.firstSeenAt.getTime()).toBe(first.firstSeenAt.getTime());
  });

  test("touch records the chat", async () => {
    const id = newId();
    const groupId = -1_000_000_000_000 - id;
    await users.touch(
      { id, first_name: "G" },
      { id: groupId, type: "supergroup", title: "Makers", is_forum: true },
    );
    await users.touch({ id, first_name: "G" }, { id: groupId, type: "supergroup", title: "Makers 2" });
    const [chat] = await database.db.select().from(chats).where(eq(chats.id, groupId));
    expect(chat).toMatchObject({ type: "supergroup", title: "Makers 2", isForum: false });
  });

  test("markBlocked marks once; a new message from the user in their private chat clears it", async () => {
    const id = newId();
    await users.touch({ id, first_name: "B" });
    expect(await users.markBlocked(id)).toBe(true);
    expect(await users.markBlocked(id)).toBe(false);
    expect((await users.get(id))?.blockedAt).toBeInstanceOf(Date);
    // an inline query (no chat) or a group message proves nothing about the private chat
    await users.touch({ id, first_name: "B" });
    await users.touch({ id, first_name: "B" }, { id: -100_777, type: "supergroup", title: "G" });
    expect((await users.get(id))?.blockedAt).toBeInstanceOf(Date);
    await users.touch({ id, first_name: "B" }, { id, type: "private" });
    expect((await users.get(id))?.blockedAt).toBeNull();
  });

  test("reachablePrivately: only with a private chat, and not while blocked", async () => {
    const id = newId();
    await users.touch({ id, first_name: "R" });
    expect(await users.reachablePrivately(id)).toBe(false);
    await users.touch({ id, first_name: "R" }, { id, type: "private" });
    expect(await users.reachablePrivately(id)).toBe(true);
    await users.markBlocked(id);
    expect(await users.reachablePrivately(id)).toBe(false);
  });

  test("markBlocked and setLanguage of an unknown user change nothing", async () => {
    const id = newId();
    expect(await users.markBlocked(id)).toBe(false);
    expect(await users.setLanguage(id, "fa")).toBe(false);
    expect(await users.get(id)).toBeUndefined();
  });

  test("setLanguage refuses a language we do not speak", async () => {
    const id = newId();
    await users.touch({ id, first_name: "X" });
    // @ts-expect-error: the type already forbids it; the check guards callers outside TypeScript
    await expect(users.setLanguage(id, "de")).rejects.toThrow();
    expect((await users.get(id))?.language).toBe("en");
  });

  test("welcome grants the welcome credits once ever, even when called concurrently", async () => {
    const id = newId();
    await users.touch({ id, first_name: "W" });
    const results = await Promise.all([users.welcome(id), users.welcome(id), users.welcome(id)]);
    expect(results.filter((r) => r.granted)).toHaveLength(1);
    expect(results.every((r) => r.amount === 20)).toBe(true);
    expect(await users.welcome(id)).toEqual({ granted: false, amount: 20 });
    expect(await ledger.account(id)).toMatchObject({ available: 20, held: 0 });
    expect(await ledger.audit({ userId: id })).toEqual([]);
  });

  test("no welcome credits configured: nothing is granted", async () => {
    const none = createUsers(database.db, ledger, { welcomeCredits: 0 });
    const id = newId();
    await none.touch({ id, first_name: "Z" });
    expect(await none.welcome(id)).toEqual({ granted: false, amount: 0 });
    expect(await ledger.account(id)).toMatchObject({ available: 0, held: 0 });
  });

  describe("touch with the row read for this update (the hot path)", () => {
    const rename = (id: number, firstName: string) =>
      database.db.update(usersTable).set({ firstName }).where(eq(usersTable.id, id));

    test("writes nothing when nothing changed and the user was seen lately", async () => {
      const id = newId();
      const known = await users.touch({ id, first_name: "Sara" });
      // changed behind its back: a write would put "Sara" back
      await rename(id, "Elsewhere");
      expect(await users.touch({ id, first_name: "Sara" }, undefined, known)).toBe(known);
      expect((await users.get(id))?.firstName).toBe("Elsewhere");
    });

    test("writes a changed name, a stale last-seen, and an unblock in the private chat", async () => {
      const id = newId();
      const known = await users.touch({ id, first_name: "Sara" });
      expect((await users.touch({ id, first_name: "Sara B." }, undefined, known)).firstName).toBe("Sara B.");

      const seen = await users.touch({ id, first_name: "Sara B." });
      await rename(id, "Elsewhere");
      const longAgo = { ...seen, lastSeenAt: new Date(Date.now() - 6 * 60_000) };
      const fresh = await users.touch({ id, first_name: "Sara B." }, undefined, longAgo);
      expect(fresh.firstName).toBe("Sara B.");
      expect(fresh.lastSeenAt.getTime()).toBeGreaterThan(longAgo.lastSeenAt.getTime());

      expect(await users.markBlocked(id)).toBe(true);
      const blocked = await users.get(id);
      const privateChat = { id, type: "private" };
      expect((await users.touch({ id, first_name: "Sara B." }, privateChat, blocked))?.blockedAt).toBeNull();
    });

    test("a chat is written again only when it changed or after a while", async () => {
      const id = newId();
      const groupId = -1_000_000_000_000 - id;
      const title = async () =>
        (await database.db.select().from(chats).where(eq(chats.id, groupId)))[0]?.title;
      await users.touch({ id, first_name: "G" }, { id: groupId, type: "supergroup", title: "Club" });
      await database.db.update(chats).set({ title: "Elsewhere" }).where(eq(chats.id, groupId));
      await users.touch({ id, first_name: "G" }, { id: groupId, type: "supergroup", title: "Club" });
      expect(await title()).toBe("Elsewhere");
      await users.touch({ id, first_name: "G" }, { id: groupId, type: "supergroup", title: "Club 2" });
      expect(await title()).toBe("Club 2");
    });
  });
});
