import { eq } from "drizzle-orm";
import type { Message } from "grammy/types";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestGroup, TestUser } from "../../../sandbox/playground/telegram";
import { baseCommands, groupAdminCommands } from "../../../src/bot/commands";
import { processedUpdates } from "../../../src/platform/db/schema";
import { userRateKeyPrefix } from "../../../src/platform/lib/rate-window";
import { menuCommands } from "../../../src/runtime/features";
import {
  eventually,
  generationIn,
  type Harness,
  redisUrl,
  startedUser,
  startHarness,
} from "../../support/harness";
import { confirmIn, placeOffer } from "../../support/inline";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

/**
 * What a group sees (issue 46): every group flow of the stand-in, in a group
 * and in a forum topic (each command, a free-text reply, panels, Confirm, the
 * status and the delivered result, an action on the result, inline mode, a
 * member short of credits), and not one message the group receives (text,
 * caption, buttons, each edit) tells of a member's balance or credit history.
 */

const WELCOME = 100;
/** granted on top of the welcome: 8,019 in all, a number no price or id of a test makes */
const GRANTED = 7_919;

/** What would tell the group of someone's account: their numbers, or the words balance and history use. */
const forbidden: RegExp[] = [
  /8,?019/,
  /7,?919/,
  /balance\s*:/i,
  /\(balance/i,
  /💳 Your credits/,
  /Available:/,
  /Reserved for requests/,
  /Latest movements/,
  /No movements yet/,
  /granted/i,
  /welcome credits/i,
  /you have \d/i,
  / has \d/,
  /\d+ more/,
  /Your recent requests/,
  /You have no requests yet/,
  // a /history line: "1. Image generation · ✅ delivered · 12 credits"
  /^\d+\. .+ · .+ · /m,
  /Invited so far/,
];

const panel = hasData("cv:ok");
const photo = (m: BotMessage) => m.photo !== undefined;

/** Every text a group could read of a message: its text or caption and its buttons, now and before each edit. */
function readable(m: BotMessage): string[] {
  return [m, ...m.history].flatMap((state: Message) => [
    plain(state.text),
    plain(state.caption),
    ...buttons(state).map((b) => `${b.text} ${"url" in b ? b.url : ""}`),
  ]);
}

describe("what a group sees", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { GROUP_RATE_LIMIT: "1000" } });
  });
  afterAll(async () => h?.stop());

  /** Waits until every update sent so far is handled to the end. */
  async function settled(): Promise<void> {
    await eventually(async () => {
      const pending = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"));
      return pending === 0 ? true : undefined;
    });
  }

  /**
   * The per-user rate limit (20 requests in 10 s, real time) would answer "too fast": the
   * walk ends the members' windows, as 10 s of waiting would (their counts in Redis gone).
   */
  async function outOfTheRateWindow(...members: TestUser[]): Promise<void> {
    const redis = new Redis(redisUrl);
    try {
      await redis.del(...members.map((m) => `${userRateKeyPrefix(h.config.redis.prefix)}${m.id}`));
    } finally {
      await redis.quit();
    }
  }

  /** A member writes in the group (in its topic, when there is one) and the bot has answered. */
  async function say(user: TestUser, group: TestGroup, text: string, threadId?: number): Promise<Message> {
    const done = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "done"));
    const sent = await user.sendIn(group, text, threadId ? { threadId } : {});
    await eventually(async () => {
      const now = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "done"));
      return now > done ? true : undefined;
    });
    await settled();
    return sent;
  }

  async function walk(forum: boolean) {
    // a member with a private chat open, 8,019 credits and a history of movements
    const rich = await startedUser(h);
    await h.runtime.ledger.grant({ userId: rich.id, amount: GRANTED, key: `privacy-${rich.id}` });
    // a member who never wrote to the bot privately, and who will have no credits
    const poor = h.tg.user({ language: "en" });
    const group = h.tg.group({ title: "Studio", forum, members: [rich, poor], creator: rich });
    const topic = forum ? group.createTopic(rich, "Art") : undefined;
    const inGroup = { in: group };

    // every command of the menus, as a member with a private chat
    const commands = [...new Set([...baseCommands, ...menuCommands, ...groupAdminCommands])];
    const conversations = new Set(["image", "edit", "video", "dub"]);
    for (const command of commands) {
      await say(rich, group, `/${command}`, topic);
      if (conversations.has(command)) await say(rich, group, "/cancel", topic);
    }
    await outOfTheRateWindow(rich, poor);
    // the member with the private chat gets their details there
    const privately = rich.messages().map((m) => plain(m.text));
    expect(privately.some((text) => /8,?019/.test(text) && text.includes("Latest movements"))).toBe(true);
    expect(
      privately.some((text) => text.includes("Your recent requests") || text.includes("no requests yet")),
    ).toBe(true);
    expect(group.messages().some(says("I sent it to our private chat"))).toBe(true);

    // a request from its command to the result, and an action on the result
    const asked = await say(rich, group, "/image a neon city in the rain", topic);
    const summary = await rich.waitFor(panel, { ...inGroup, after: asked.message_id });
    expect(plain(summary.text)).toMatch(/Price: \d+ credits/);
    if (topic) expect(summary.message_thread_id).toBe(topic);
    await rich.press(byData("cv:ok"), { ...inGroup, message: summary });
    await generationIn(h, rich.id, "delivered");
    const result = await rich.waitFor(photo, { ...inGroup, timeoutMs: 20_000 });
    await settled();
    await rich.press((b) => "callback_data" in b && b.callback_data.startsWith("rg:"), inGroup);
    await rich.waitFor(panel, { ...inGroup, after: result.message_id });
    await settled();
    await say(rich, group, "/cancel", topic);

    // the other panels, priced, each left with /cancel
    for (const text of ["/video a cat in the rain", "/edit", "/dub"]) {
      await say(rich, group, text, topic);
      await say(rich, group, "/cancel", topic);
    }
    // a free-text answer to the bot's question in the group
    const question = await say(rich, group, "/image", topic);
    const ask = await rich.waitFor(says("Describe the image"), { ...inGroup, after: question.message_id });
    await rich.replyTo(ask, "a lantern in the fog");
    await rich.waitFor(panel, { ...inGroup, after: ask.message_id });
    await settled();
    await say(rich, group, "/cancel", topic);

    await outOfTheRateWindow(rich, poor);
    // a member short of credits, whom the bot cannot write to privately
    await say(poor, group, "/start", topic);
    await h.runtime.ledger.adjust({ userId: poor.id, amount: -WELCOME, key: `privacy-empty-${poor.id}` });
    for (const command of ["/balance", "/history", "/buy"]) await say(poor, group, command, topic);
    const opener = group
      .messages()
      .find((m) => buttons(m).some((b) => "url" in b && b.url?.endsWith("?start=balance")));
    expect(plain(opener?.text)).toContain("only in a private chat");
    const poorAsked = await say(poor, group, "/image a neon city in the rain", topic);
    const poorPanel = await poor.waitFor(panel, { ...inGroup, after: poorAsked.message_id });
    // no Buy button telling the group this member is short
    expect(buttons(poorPanel).some((b) => b.text.includes("Buy"))).toBe(false);
    await poor.press(byData("cv:ok"), { ...inGroup, message: poorPanel });
    const refusal = await poor.waitFor(
      (m) => m.message_id === poorPanel.message_id && says("Not enough credits")(m),
      inGroup,
    );
    expect(buttons(refusal).some((b) => "url" in b && b.url?.endsWith("?start=topup"))).toBe(true);
    await settled();

    // inline mode, placed in the group: a result confirmed, and a refusal
    const placed = await placeOffer(rich, "a red fox in the snow", group);
    await rich.waitForAnswer(confirmIn(rich, placed.inlineMessageId));
    const inlineShown = await eventually(async () => {
      const view = h.tg.inlineMessage(placed.inlineMessageId);
      return view?.photo ? view : undefined;
    });
    const short = await placeOffer(poor, "a grey wolf in the snow", group);
    await poor.waitForAnswer(confirmIn(poor, short.inlineMessageId));
    const inlineRefused = await eventually(async () => {
      const view = h.tg.inlineMessage(short.inlineMessageId);
      // never started privately: asked to start the bot first (a member who had would read "not enough credits")
      return view && view.history.length > 0 ? view : undefined;
    });
    await settled();

    // and nothing of it tells the group about an account
    const everything = [...group.messages(), inlineShown, inlineRefused].flatMap(readable);
    expect(everything.length).toBeGreaterThan(40);
    const leaks = everything.filter((text) => forbidden.some((pattern) => pattern.test(text)));
    expect(leaks).toEqual([]);
    expect(await h.runtime.ledger.account(rich.id)).toMatchObject({ held: 0 });
  }

  test("in a group: every command, panel, refusal, status and result says nothing of a member's account", async () => {
    await walk(false);
  });

  test("in a forum topic: the same, every message in the topic", async () => {
    await walk(true);
  });
});
