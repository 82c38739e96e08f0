import { eq } from "drizzle-orm";
import type { InlineKeyboardButton } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestGroup, TestUser } from "../../../sandbox/playground/telegram";
import { groupSettings, processedUpdates } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../../support/harness";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

/**
 * Group admins' settings end to end: the Telegram stand-in (with group admins
 * and members answering getChatMember as Telegram does), the simulator, real
 * Postgres and Redis. Buttons are pressed by their callback data.
 */

const WELCOME = 100;
/** low enough for one member to reach it in a test; each test uses groups of its own */
const GROUP_LIMIT = 8;

const panel = hasData("cv:ok");
const settingsScreen = says("Settings of");

const VIDEO_OFF = "Video generation is switched off in this group by its admins";
const ADMINS_ONLY_HERE = "In this group, only its admins can use me";
const ONLY_ADMINS_CHANGE = "Only this group's admins can change its settings.";

describe("group settings", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { GROUP_RATE_LIMIT: String(GROUP_LIMIT), GROUP_RATE_WINDOW_SECONDS: "600" },
    });
  });
  afterAll(async () => h?.stop());

  async function row(group: TestGroup) {
    const [found] = await h.db.db.select().from(groupSettings).where(eq(groupSettings.chatId, group.id));
    return found;
  }

  /** An admin opens /groupsettings in the group and gets the screen. */
  async function openSettings(admin: TestUser, group: TestGroup): Promise<BotMessage> {
    const sent = await admin.sendIn(group, "/groupsettings");
    return admin.waitFor(settingsScreen, { in: group, after: sent.message_id });
  }

  /** Presses a settings button and waits for its answer; returns the answer's text. */
  async function pressSetting(user: TestUser, group: TestGroup, screen: BotMessage, data: string) {
    const id = await user.press(byData(data), { in: group, message: screen });
    return (await user.waitForAnswer(id)).text;
  }

  /** Waits until `count` updates (when given) were handled to the end and none is in handling; returns how many were. */
  async function handled(count?: number): Promise<number> {
    return eventually(async () => {
      const pending = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"));
      const done = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "done"));
      return pending === 0 && done >= (count ?? 0) ? done : undefined;
    });
  }

  async function nothingSpent(user: TestUser) {
    expect(await h.runtime.generations.recent(user.id, 5)).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
  }

  test("an admin switches video off with the buttons: a member's /video is refused, /image still works", async () => {
    const admin = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ title: "Studio", members: [member], admins: [admin] });

    const screen = await openSettings(admin, group);
    expect(plain(screen.text)).toContain("Settings of Studio");
    expect(plain(screen.text)).toContain("✅ Video generation: on");
    expect(await row(group)).toBeUndefined();

    expect(await pressSetting(admin, group, screen, "gs:video:off")).toBe("Saved.");
    // the same message, edited in place: the button now switches video back on
    const edited = await admin.waitFor(
      (m) => m.message_id === screen.message_id && says("🚫 Video generation: off")(m),
      { in: group },
    );
    expect(hasData("gs:video:on")(edited)).toBe(true);
    expect(group.messages().filter(settingsScreen)).toHaveLength(1);
    expect(await row(group)).toMatchObject({
      disabledOperations: ["video"],
      access: "everyone",
      updatedBy: admin.id,
    });

    const video = await member.sendIn(group, "/video a cat");
    const refusal = await member.waitFor(says(VIDEO_OFF), { in: group, after: video.message_id });
    expect(refusal.reply_to_message?.message_id).toBe(video.message_id);
    await handled();
    expect(group.messages().some(panel)).toBe(false);
    await nothingSpent(member);

    const image = await member.sendIn(group, "/image a cat");
    const summary = await member.waitFor(panel, { in: group, after: image.message_id });
    expect(plain(summary.text)).toContain("a cat");
  });

  test("a member cannot open the settings nor change them with an admin's buttons; the row stays as it was", async () => {
    const creator = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member], creator });

    const asked = await member.sendIn(group, "/groupsettings");
    await member.waitFor(says(ONLY_ADMINS_CHANGE), { in: group, after: asked.message_id });
    await handled();
    expect(group.messages().some(settingsScreen)).toBe(false);

    const screen = await openSettings(creator, group);
    await pressSetting(creator, group, screen, "gs:dub:off");
    const before = await row(group);
    expect(before).toMatchObject({ disabledOperations: ["dub"], updatedBy: creator.id });

    expect(await pressSetting(member, group, screen, "gs:image:off")).toBe(ONLY_ADMINS_CHANGE);
    expect(await pressSetting(member, group, screen, "gs:access:admins")).toBe(ONLY_ADMINS_CHANGE);
    await handled();
    expect(await row(group)).toEqual(before);
    const shown = group.messages().find((m) => m.message_id === screen.message_id);
    expect(plain(shown?.text)).toContain("✅ Image generation: on");
    expect(plain(shown?.text)).toContain("Who may use me here: everyone");
  });

  test("access 'admins only' refuses a member and lets an admin through", async () => {
    const admin = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member], admins: [admin] });

    const screen = await openSettings(admin, group);
    await pressSetting(admin, group, screen, "gs:access:admins");
    await admin.waitFor((m) => m.message_id === screen.message_id && says("admins only")(m), { in: group });
    expect(await row(group)).toMatchObject({ access: "admins", disabledOperations: [] });

    const asked = await member.sendIn(group, "/image a cat");
    await member.waitFor(says(ADMINS_ONLY_HERE), { in: group, after: asked.message_id });
    await handled();
    expect(group.messages().some(panel)).toBe(false);
    await nothingSpent(member);

    const own = await admin.sendIn(group, "/image a cat");
    await admin.waitFor(panel, { in: group, after: own.message_id });
  });

  test("a panel opened before video was switched off cannot be confirmed; nothing is held", async () => {
    const admin = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member], admins: [admin] });

    const asked = await member.sendIn(group, "/video a slow sunrise");
    const summary = await member.waitFor(panel, { in: group, after: asked.message_id });
    const screen = await openSettings(admin, group);
    await pressSetting(admin, group, screen, "gs:video:off");

    expect(await pressSetting(member, group, summary, "cv:ok")).toContain(VIDEO_OFF);
    await handled();
    await nothingSpent(member);
    // the conversation was left: a second tap finds a menu no longer active
    expect(await pressSetting(member, group, summary, "cv:ok")).toBe("This menu is no longer active.");
    await nothingSpent(member);
  });

  test("'again' under a result in the group is refused once its operation is switched off", async () => {
    const admin = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member], admins: [admin] });

    const asked = await member.sendIn(group, "/image a red kite");
    const summary = await member.waitFor(panel, { in: group, after: asked.message_id });
    await pressSetting(member, group, summary, "cv:ok");
    const made = await generationIn(h, member.id, "delivered");
    // the result's buttons are under the photo itself, none on the status saying Done
    const result = await member.waitFor((m) => m.photo !== undefined, { in: group });
    const done = await member.waitFor(
      (m) => m.message_id === made.statusMessageId && plain(m.text).startsWith("Done"),
      { in: group },
    );
    expect(buttons(done)).toEqual([]);
    const isAgain = (b: InlineKeyboardButton) => "callback_data" in b && b.callback_data.startsWith("rg:");
    expect(buttons(result).some(isAgain)).toBe(true);

    const screen = await openSettings(admin, group);
    await pressSetting(admin, group, screen, "gs:image:off");
    const pressed = await member.press(isAgain, { in: group, message: result });
    expect((await member.waitForAnswer(pressed)).text).toContain("Image generation is switched off");
    await handled();
    expect(await h.runtime.generations.recent(member.id, 5)).toEqual([
      expect.objectContaining({ id: made.id }),
    ]);
    expect(group.messages().filter(panel)).toHaveLength(0);
  });

  test("an anonymous admin (writing as the group) opens the settings; in a private chat it is explained", async () => {
    const admin = await startedUser(h);
    const group = h.tg.group({ members: [admin] });
    group.promote(admin, { anonymous: true });
    const sent = group.sendAsGroup(admin, "/groupsettings");
    await admin.waitFor(settingsScreen, { in: group, after: sent.message_id });

    const someone = await startedUser(h);
    await someone.send("/groupsettings");
    await someone.waitFor(says("send it in the group"));
  });

  test("the command menu of group admins has /groupsettings, in English and Persian; members' does not", async () => {
    const menus = h.tg.callsOf("setMyCommands").map((c) => {
      const parse = (raw: unknown) => (typeof raw === "string" ? JSON.parse(raw) : raw) as unknown;
      const scope = (parse(c.params.scope) as { type: string } | undefined)?.type ?? "default";
      const commands = parse(c.params.commands) as Array<{ command: string; description: string }>;
      return { scope, language: c.params.language_code ?? "", commands };
    });
    const find = (scope: string, language: string) =>
      menus
        .find((m) => m.scope === scope && m.language === language)
        ?.commands.find((c) => c.command === "groupsettings");
    expect(find("all_chat_administrators", "")?.description).toBe(translate("en", "cmd-groupsettings"));
    expect(find("all_chat_administrators", "fa")?.description).toBe(translate("fa", "cmd-groupsettings"));
    for (const scope of ["default", "all_private_chats", "all_group_chats"])
      expect(find(scope, "")).toBeUndefined();
  });

  test("the group limit stops one member flooding a group, once told, and does not touch another group", async () => {
    const flooder = await startedUser(h);
    const other = await startedUser(h);
    const busy = h.tg.group({ members: [flooder, other] });
    const quiet = h.tg.group({ members: [flooder, other] });

    const since = await handled();
    for (let i = 0; i < GROUP_LIMIT + 3; i++) await flooder.sendIn(busy, "/balance");
    await handled(since + GROUP_LIMIT + 3);
    const inBusy = busy.messages();
    // a group reads only that the details went to the private chat (issue 46)
    expect(inBusy.filter(says("I sent it to our private chat"))).toHaveLength(GROUP_LIMIT);
    expect(inBusy.filter(says("This group is sending me too many requests"))).toHaveLength(1);

    // the whole group waits, another member too, without another notice
    await other.sendIn(busy, "/balance");
    await handled(since + GROUP_LIMIT + 4);
    expect(busy.messages()).toHaveLength(inBusy.length);

    // another group is not touched, and the flooder is not limited there
    const asked = await flooder.sendIn(quiet, "/balance");
    await flooder.waitFor(says("I sent it to our private chat"), { in: quiet, after: asked.message_id });
  });

  test("the group limit counts requests only: a group's own chatter (privacy mode off) does not use it up", async () => {
    const chatty = await startedUser(h);
    const group = h.tg.group({ members: [chatty] });
    h.tg.setRules({ groupPrivacy: false });
    try {
      const since = await handled();
      for (let i = 0; i < GROUP_LIMIT + 3; i++) await chatty.sendIn(group, `just talking ${i}`);
      await handled(since + GROUP_LIMIT + 3);
      const asked = await chatty.sendIn(group, "/balance");
      await chatty.waitFor(says("I sent it to our private chat"), { in: group, after: asked.message_id });
      expect(group.messages().filter(says("This group is sending me too many requests"))).toHaveLength(0);
    } finally {
      h.tg.setRules({ groupPrivacy: true });
    }
  });
});
