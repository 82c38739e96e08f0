import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { createAdminCheck } from "../../../src/features/groups/admins";

/** The group admin check against the Telegram stand-in's getChatMember, on a clock the test moves. */
describe("group admin check", () => {
  let tg: TelegramStandIn;
  let api: Api;
  const logger = { warn: () => undefined };

  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
  });
  afterAll(async () => tg?.close());

  const asks = (chatId: number) =>
    tg.callsOf("getChatMember").filter((c) => Number(c.params.chat_id) === chatId).length;

  test("the creator and an administrator are admins; a member, a user who left and one Telegram does not know are not", async () => {
    const check = createAdminCheck({ ttlMs: 60_000, now: () => 0 });
    const [creator, admin, member, gone] = [tg.user(), tg.user(), tg.user(), tg.user()];
    const group = tg.group({ members: [member, gone], creator, admins: [admin] });
    group.leave(gone);
    const warned: unknown[] = [];
    const noting = { warn: (...args: unknown[]) => void warned.push(args) };
    const isAdmin = (userId: number) => check.isAdmin(api, group.id, userId, noting);

    expect(await isAdmin(creator.id)).toBe(true);
    expect(await isAdmin(admin.id)).toBe(true);
    expect(await isAdmin(member.id)).toBe(false);
    expect(await isAdmin(gone.id)).toBe(false);
    // Telegram refuses getChatMember for a user it does not know: that answer is a no, not an error
    await expect(isAdmin(42)).resolves.toBe(false);
    const refused = tg
      .callsOf("getChatMember")
      .filter((c) => Number(c.params.chat_id) === group.id && Number(c.params.user_id) === 42);
    expect(refused.map((c) => c.response.ok)).toEqual([false]);
    // a refusal is Telegram's answer, not a failure to ask: nothing worth a warning
    expect(warned).toEqual([]);
    expect(asks(group.id)).toBe(5);
  });

  test("a member promoted is seen as an admin once the cached answer expires", async () => {
    let now = 1_000;
    const check = createAdminCheck({ ttlMs: 5_000, now: () => now });
    const member = tg.user();
    const group = tg.group({ members: [member] });

    expect(await check.isAdmin(api, group.id, member.id, logger)).toBe(false);
    group.promote(member);
    now += 4_999;
    // still the cached answer: no second getChatMember
    expect(await check.isAdmin(api, group.id, member.id, logger)).toBe(false);
    expect(asks(group.id)).toBe(1);
    now += 2;
    expect(await check.isAdmin(api, group.id, member.id, logger)).toBe(true);
    expect(asks(group.id)).toBe(2);

    group.demote(member);
    now += 5_001;
    expect(await check.isAdmin(api, group.id, member.id, logger)).toBe(false);
  });

  test("answers are kept per chat and user; someone Telegram does not know is no admin", async () => {
    const check = createAdminCheck({ ttlMs: 60_000, now: () => 0 });
    const admin = tg.user();
    const here = tg.group({ members: [], admins: [admin] });
    const there = tg.group({ members: [admin] });
    expect(await check.isAdmin(api, here.id, admin.id, logger)).toBe(true);
    expect(await check.isAdmin(api, there.id, admin.id, logger)).toBe(false);
    expect(await check.isAdmin(api, here.id, 42, logger)).toBe(false);
    expect(await check.isAdmin(api, here.id, admin.id, logger)).toBe(true);
    expect(asks(here.id)).toBe(2);
  });
});
