import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { payments, referrals } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { adminSuite } from "../../support/admin-suite";
import { eventually, type Harness, startedUser } from "../../support/harness";
import { invoiceFor } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const welcome = 100;
const bonus = 10;
/** The default "s" pack: 50 credits for 50 Stars, no pack bonus. */
const packCredits = 50;
const packStars = 50;

describe("referrals end to end", () => {
  let h: Harness;
  let admin: TestUser;
  let spends = 0;

  adminSuite(
    {
      env: { WELCOME_CREDITS: String(welcome), REFERRAL_BONUS: String(bonus) },
    },
    (s) => {
      h = s.h;
      admin = s.admin;
    },
  );

  const available = async (user: TestUser) => (await h.runtime.ledger.account(user.id)).available;
  const referralOf = async (user: TestUser) =>
    (await h.db.db.select().from(referrals).where(eq(referrals.referredId, user.id)))[0];

  /** The user's invite code, read from the link /invite shows (with what it brought so far). */
  async function inviteCode(user: TestUser, stats = { invited: 0, rewarded: 0 }): Promise<string> {
    const sent = await user.send("/invite");
    const reply = await user.waitFor((m) => m.text?.includes("https://t.me/"), { after: sent });
    const match = /https:\/\/t\.me\/[A-Za-z0-9_]+\?start=(r_[A-Za-z0-9_-]+)/.exec(reply.text ?? "");
    if (!match) throw new Error(`no invite link in ${reply.text}`);
    expect(reply.text).toBe(en("referral-invite", { link: match[0], amount: bonus, ...stats }));
    return match[1]!;
  }

  /** A user new to the bot who opens `code`'s link; resolves once the bot answered with the note. */
  async function arriveThrough(code: string, note: (m: { text?: string | undefined }) => boolean) {
    const user = h.tg.user({ firstName: "Newcomer" });
    const sent = await user.send(`/start ${code}`);
    await user.waitFor((m) => note(m), { after: sent });
    return user;
  }

  /**
   * A purchase as a user makes it: /buy, the 50-Star pack (50 credits), the
   * invoice paid through the stand-in, and the receipt with the new balance.
   */
  async function purchase(user: TestUser, balanceAfter: number) {
    const invoice = await invoiceFor(user, packStars);
    const paid = await user.pay(invoice);
    if (!paid.ok) throw new Error(`the payment did not go through: ${paid.reason}`);
    await user.waitFor((m) => m.text === receipt(balanceAfter), { after: invoice });
    return paid;
  }
  const receipt = (available: number) => en("buy-paid", { credits: packCredits, available });
  const receipts = (user: TestUser, available: number) =>
    user.messages().filter((m) => m.text === receipt(available));
  const bonusNotices = (user: TestUser) =>
    user.messages().filter((m) => m.text === en("referral-bonus-paid", { amount: bonus, name: "Newcomer" }));
  const paymentOf = async (chargeId: string) =>
    (await h.db.db.select().from(payments).where(eq(payments.telegramChargeId, chargeId)))[0];

  /** The admin sends `text`; the bot's first answer to it. */
  async function adminAsks(text: string): Promise<string | undefined> {
    const sent = await admin.send(text);
    return (await admin.waitFor((m) => Boolean(m.text), { after: sent })).text;
  }

  /** Spends credits the way a request does: a hold, charged. */
  async function spend(user: TestUser, amount: number) {
    const key = `test-spend-${user.id}-${++spends}`;
    expect((await h.runtime.ledger.hold({ userId: user.id, amount, key })).ok).toBe(true);
    expect((await h.runtime.ledger.charge({ key })).ok).toBe(true);
  }

  test("the bonus is paid to both at the first purchase, once; later purchases and repeats pay nothing more", async () => {
    const inviter = await startedUser(h);
    const code = await inviteCode(inviter);
    expect(await inviteCode(inviter)).toBe(code);
    const friend = await arriveThrough(
      code,
      (m) => m.text === en("referral-joined", { name: inviter.chat.first_name ?? "", amount: bonus }),
    );
    expect(await referralOf(friend)).toMatchObject({ referrerId: inviter.id, rewardedAt: null });
    expect(await available(friend)).toBe(welcome);

    const first = await purchase(friend, welcome + packCredits + bonus);
    expect(await available(friend)).toBe(welcome + packCredits + bonus);
    expect(await available(inviter)).toBe(welcome + bonus);
    expect(await referralOf(friend)).toMatchObject({ rewardChargeId: first.chargeId, revokedAt: null });
    await inviter.waitFor((m) => m.text === en("referral-bonus-paid", { amount: bonus, name: "Newcomer" }));

    // Telegram delivers the same successful_payment again: a second receipt, nothing more granted
    friend.deliverLate(first.message);
    await eventually(async () =>
      receipts(friend, welcome + packCredits + bonus).length === 2 ? true : undefined,
    );
    await h.tg.idle();
    expect(await available(friend)).toBe(welcome + packCredits + bonus);
    expect(await available(inviter)).toBe(welcome + bonus);

    // a second purchase pays no bonus
    const second = await purchase(friend, welcome + 2 * packCredits + bonus);
    expect(await available(friend)).toBe(welcome + 2 * packCredits + bonus);
    expect(await available(inviter)).toBe(welcome + bonus);

    // refunding (from Telegram's side: refunded_payment) a purchase that did not pay the bonus leaves the bonus alone
    const answer = await h.tg.call("refundStarPayment", {
      user_id: friend.id,
      telegram_payment_charge_id: second.chargeId,
    });
    expect(answer.ok).toBe(true);
    await friend.waitFor(
      (m) => m.text === en("refund-user-notice", { stars: packStars, reversed: packCredits }),
    );
    expect(await paymentOf(second.chargeId)).toMatchObject({
      state: "refunded",
      reversedCredits: packCredits,
    });
    expect(await available(friend)).toBe(welcome + packCredits + bonus);
    expect(await available(inviter)).toBe(welcome + bonus);
    expect(await referralOf(friend)).toMatchObject({ rewardChargeId: first.chargeId, revokedAt: null });
    expect(bonusNotices(inviter)).toHaveLength(1);

    expect(await inviteCode(inviter, { invited: 1, rewarded: 1 })).toBe(code);
  });

  test("a refund of the first purchase takes both bonuses back, never below zero", async () => {
    const inviter = await startedUser(h);
    const friend = await arriveThrough(await inviteCode(inviter), (m) => Boolean(m.text?.startsWith("🤝")));
    const paid = await purchase(friend, welcome + packCredits + bonus);
    // the inviter spends all but 4 of the bonus; the friend all but 3 of everything
    await spend(inviter, welcome + bonus - 4);
    await spend(friend, welcome + packCredits + bonus - 3);

    // the admin refunds the first purchase: 3 of its 50 credits are left to take back
    expect(await adminAsks(`/refund ${paid.chargeId}`)).toBe(
      en("refund-done-partly", {
        charge: paid.chargeId,
        user: friend.id,
        stars: packStars,
        reversed: 3,
        missing: packCredits - 3,
      }),
    );
    expect(await paymentOf(paid.chargeId)).toMatchObject({
      state: "refunded",
      reversedCredits: 3,
      notReversedCredits: packCredits - 3,
    });
    expect(await available(friend)).toBe(0);
    expect(await available(inviter)).toBe(0);
    expect((await referralOf(friend))?.revokedAt).not.toBeNull();

    // a second refund of the same charge is refused and changes nothing, nor does a later purchase pay a bonus again
    expect(await adminAsks(`/refund ${paid.chargeId}`)).toBe(
      en("refund-already", { charge: paid.chargeId, reversed: 3 }),
    );
    expect(
      h.tg.callsOf("refundStarPayment").filter((c) => c.params.telegram_payment_charge_id === paid.chargeId),
    ).toHaveLength(1);
    await purchase(friend, packCredits);
    expect(await available(friend)).toBe(packCredits);
    expect(await available(inviter)).toBe(0);
  });

  test("one's own link, an existing user, a loop, a second invite and an unknown code are refused", async () => {
    const inviter = await startedUser(h);
    const code = await inviteCode(inviter);

    const self = await inviter.send(`/start ${code}`);
    await inviter.waitFor((m) => m.text === en("referral-own-link"), { after: self });
    expect(await referralOf(inviter)).toBeUndefined();

    const existing = await startedUser(h);
    const late = await existing.send(`/start ${code}`);
    await existing.waitFor((m) => m.text === en("referral-not-new"), { after: late });
    expect(await referralOf(existing)).toBeUndefined();

    // the friend the inviter brought cannot bring the inviter back
    const friend = await arriveThrough(code, (m) => Boolean(m.text?.startsWith("🤝")));
    const loop = await inviter.send(`/start ${await inviteCode(friend)}`);
    await inviter.waitFor((m) => m.text === en("referral-not-new"), { after: loop });
    expect(await referralOf(inviter)).toBeUndefined();

    // invited once: another link changes nothing
    const other = await startedUser(h);
    const twice = await friend.send(`/start ${await inviteCode(other)}`);
    await friend.waitFor((m) => m.text === en("referral-not-new"), { after: twice });
    expect(await referralOf(friend)).toMatchObject({ referrerId: inviter.id });

    // an unknown code, or a parameter that is no code: a plain welcome and nothing recorded
    // (`/start topup` also opens the packs: test/features/payments/payments.e2e.test.ts)
    for (const parameter of ["r_nobodyhasthis", "hello"]) {
      const stranger = h.tg.user();
      const sent = await stranger.send(`/start ${parameter}`);
      await stranger.waitFor((m) => Boolean(m.text?.startsWith("Hi ")), { after: sent });
      // one chat's updates are handled in order: once /help is answered, /start has said all it will
      const help = await stranger.send("/help");
      await stranger.waitFor((m) => Boolean(m.text?.startsWith(en("help"))), { after: help });
      expect(await referralOf(stranger)).toBeUndefined();
      const answers = stranger.messages().filter((m) => m.message_id > sent.message_id);
      expect(answers.map((m) => m.text)).toEqual([
        expect.stringMatching(/^Hi /),
        expect.stringContaining(en("help")),
      ]);
    }

    // nobody refused got a bonus at their purchase, and the inviter got nothing for them
    const before = await available(inviter);
    await purchase(existing, welcome + packCredits);
    expect(await available(existing)).toBe(welcome + packCredits);
    expect(await available(inviter)).toBe(before);
  });
});
