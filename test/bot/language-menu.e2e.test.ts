import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../sandbox/playground/telegram";
import { adminCommands, groupAdminCommands } from "../../src/bot/commands";
import { translate } from "../../src/platform/i18n/i18n";
import type { Language } from "../../src/platform/i18n/language";
import { eventually, type Harness, startedUser, startHarness } from "../support/harness";

/** The first user a fresh stand-in makes has this id: the bot admin of these tests. */
const adminId = 5_000_000_001;

/** A bot whose admin (English client) started it before this run: the start-up sets the admin's own menus. */
async function startWithAdmin(logs: string[]): Promise<{ h: Harness; admin: TestUser }> {
  const h = await startHarness({
    noRuntime: true,
    env: { ADMIN_IDS: String(adminId), LOG_LEVEL: "warn" },
    logs,
  });
  const admin = h.tg.user({ language: "en", started: true });
  expect(admin.id).toBe(adminId);
  await h.startRuntime();
  return { h, admin };
}

/**
 * The ☰ menu follows the language chosen with /language, whatever the
 * client's language; a bot admin keeps the admin commands; in a group, its
 * admins see the group-admin commands and nobody sees the private ones.
 */
describe("the command menu in the chosen language", () => {
  let h: Harness;
  let admin: TestUser;
  const logs: string[] = [];

  beforeAll(async () => {
    ({ h, admin } = await startWithAdmin(logs));
    await admin.send("/start");
    await admin.waitFor((m) => Boolean(m.text));
  }, 60_000);
  afterAll(async () => h?.stop());

  /** /language, then the button of `name`; resolves once the bot confirmed the choice. */
  async function choose(user: TestUser, name: "English" | "فارسی", language: Language) {
    const sent = await user.send("/language");
    const offer = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === name),
      { after: sent },
    );
    await user.press(name, { message: offer });
    await user.waitFor(
      (m) => m.message_id === offer.message_id && m.text === translate(language, "language-set"),
    );
  }

  /** Resolves once every entry of the menu is described in `language` (and returns the menu). */
  function menuIn(read: () => Array<{ command: string; description: string }>, language: Language) {
    return eventually(async () => {
      const menu = read();
      const translated = menu.every((c) => c.description === translate(language, `cmd-${c.command}`));
      return menu.length > 0 && translated ? menu : undefined;
    });
  }

  const names = (menu: Array<{ command: string }>) => menu.map((c) => c.command);

  test("a user whose client speaks English picks فارسی: the menu turns Persian; English turns it back", async () => {
    const user = await startedUser(h, "en");
    const before = user.commandMenu();
    expect(before.find((c) => c.command === "balance")?.description).toBe(translate("en", "cmd-balance"));

    await choose(user, "فارسی", "fa");
    const persian = await menuIn(() => user.commandMenu(), "fa");
    // the same commands, now described in Persian; no admin commands
    expect(names(persian)).toEqual(names(before));
    // set once for the chat, for every client language
    const [call] = h.tg
      .callsOf("setMyCommands")
      .filter((c) => JSON.stringify(c.params.scope ?? "").includes(String(user.id)));
    expect(call?.params.language_code).toBeUndefined();

    await choose(user, "English", "en");
    const english = await menuIn(() => user.commandMenu(), "en");
    expect(names(english)).toEqual(names(before));
  });

  test("a bot admin who picks فارسی keeps the admin commands, in Persian, whatever the client's language", async () => {
    expect(names(admin.commandMenu())).toEqual(expect.arrayContaining([...adminCommands]));

    await choose(admin, "فارسی", "fa");
    const persian = await menuIn(() => admin.commandMenu(), "fa");
    expect(names(persian)).toEqual(expect.arrayContaining([...adminCommands, "start", "image"]));

    await choose(admin, "English", "en");
    const english = await menuIn(() => admin.commandMenu(), "en");
    expect(names(english)).toEqual(expect.arrayContaining([...adminCommands, "start", "image"]));
    // the start-up's Persian menu for the admin's chat no longer wins for a Persian client
    const seenByPersianClient = await menuIn(() => h.tg.commandMenu(adminId, { language: "fa" }), "en");
    expect(names(seenByPersianClient)).toEqual(names(english));
  });

  test("a menu Telegram refuses does not undo the choice: a warning with the reason", async () => {
    const user = await startedUser(h, "en");
    h.tg.failNext("setMyCommands", { code: 400, description: "Bad Request: menu refused for the test" });
    await choose(user, "فارسی", "fa");
    await eventually(async () =>
      (await h.runtime.users.get(user.id))?.language === "fa" ? true : undefined,
    );
    const line = await eventually(async () =>
      logs.find((l) => l.includes("could not set the user's command menu") && l.includes(String(user.id))),
    );
    const entry = JSON.parse(line) as { level: number; reason?: string; err?: unknown };
    expect(entry.level).toBe(40);
    expect(entry.reason).toContain("menu refused for the test");
    expect(entry.err).toBeUndefined();
    // the client's language still decides the menu: English
    expect(user.commandMenu().find((c) => c.command === "balance")?.description).toBe(
      translate("en", "cmd-balance"),
    );
    // the bot keeps answering in the chosen language
    const sent = await user.send("/balance");
    await user.waitFor((m) => Boolean(m.text?.includes("اعتبار شما")), { after: sent });
  });

  test("in a group its admins see the group-admin commands, members do not; nobody sees the private ones", async () => {
    const creator = await startedUser(h, "en");
    const member = await startedUser(h, "fa");
    const group = h.tg.group({ title: "Studio", members: [member], creator });

    const creatorMenu = names(creator.commandMenu({ in: group }));
    const memberMenu = member.commandMenu({ in: group });
    expect(creatorMenu).toEqual(expect.arrayContaining([...groupAdminCommands, "image", "balance"]));
    expect(names(memberMenu)).toEqual(expect.arrayContaining(["image", "balance"]));
    for (const command of groupAdminCommands) expect(names(memberMenu)).not.toContain(command);
    for (const command of ["start", "buy", "language", "settings", "history", ...adminCommands]) {
      expect(creatorMenu).not.toContain(command);
      expect(names(memberMenu)).not.toContain(command);
    }
    // in the member's language
    expect(memberMenu.every((c) => c.description === translate("fa", `cmd-${c.command}`))).toBe(true);
    // a member made admin sees them at once
    group.promote(member);
    expect(names(member.commandMenu({ in: group }))).toEqual(expect.arrayContaining([...groupAdminCommands]));
  });
});

/**
 * A deploy keeps the menus chosen with /language: an admin's is set again in
 * their language at start-up; a user's, set in their chat's scope where the
 * start-up's menus never reach, is set again from the current commands at
 * their first private update to the new process.
 */
describe("the chosen menu across a restart", () => {
  let h: Harness;
  let admin: TestUser;
  const logs: string[] = [];

  beforeAll(async () => {
    ({ h, admin } = await startWithAdmin(logs));
  }, 60_000);
  afterAll(async () => h?.stop());

  async function choosePersian(user: TestUser) {
    const sent = await user.send("/language");
    const offer = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === "فارسی"),
      { after: sent },
    );
    await user.press("فارسی", { message: offer });
    await user.waitFor(
      (m) => m.message_id === offer.message_id && m.text === translate("fa", "language-set"),
    );
  }

  /** /balance, answered (in Persian): the update was handled, whatever happened to the menu. */
  async function balance(user: TestUser) {
    const sent = await user.send("/balance");
    await user.waitFor((m) => Boolean(m.text?.includes("اعتبار شما")), { after: sent });
  }

  const inPersian = (menu: Array<{ command: string; description: string }>) =>
    menu.every((c) => c.description === translate("fa", `cmd-${c.command}`));
  const names = (menu: Array<{ command: string }>) => menu.map((c) => c.command);
  const callsFor = (userId: number) =>
    h.tg
      .callsOf("setMyCommands")
      .filter((c) => JSON.stringify(c.params.scope ?? "").includes(String(userId)));

  test("an admin with an English client who chose فارسی still has the Persian menu with the admin commands", async () => {
    await admin.send("/start");
    await admin.waitFor((m) => Boolean(m.text));
    await choosePersian(admin);

    await h.stopRuntime();
    await h.startRuntime();
    // the start-up is over once the runtime started: nothing the admin sent set this menu
    const menu = admin.commandMenu();
    expect(inPersian(menu)).toBe(true);
    expect(names(menu)).toEqual(expect.arrayContaining([...adminCommands, "start", "image", "language"]));
    // one menu for every client language: none of the start-up's per language wins over it
    expect(names(h.tg.commandMenu(adminId, { language: "fa" }))).toEqual(names(menu));
    expect(names(h.tg.commandMenu(adminId, { language: "en" }))).toEqual(names(menu));
  });

  test("a user who chose فارسی gets the menu of today's commands at their first update after a deploy; a failure only warns", async () => {
    const user = await startedUser(h, "en");
    const refused = await startedUser(h, "en");
    await choosePersian(user);
    await choosePersian(refused);
    const current = user.commandMenu();
    expect(inPersian(current)).toBe(true);

    await h.stopRuntime();
    // the menus an older deploy set, with a command since added missing and one since removed
    const older = [
      ...current.filter((c) => c.command !== "image"),
      { command: "gone", description: "قدیمی" },
    ];
    const api = new Api(h.tg.token, { apiRoot: h.tg.apiRoot });
    for (const id of [user.id, refused.id]) {
      await api.setMyCommands(older, { scope: { type: "chat", chat_id: id } });
    }
    await h.startRuntime();
    expect(user.commandMenu()).toEqual(older);

    await balance(user);
    expect(user.commandMenu()).toEqual(current);
    // once per process: a second update sets nothing
    const calls = callsFor(user.id).length;
    await balance(user);
    expect(callsFor(user.id).length).toBe(calls);

    h.tg.failNext("setMyCommands", { code: 400, description: "Bad Request: menu refused for the test" });
    await balance(refused);
    const line = logs.find(
      (l) => l.includes("could not set the user's command menu") && l.includes(String(refused.id)),
    );
    const entry = JSON.parse(line ?? "{}") as { level?: number; reason?: string; err?: unknown };
    expect(entry.level).toBe(40);
    expect(entry.reason).toContain("menu refused for the test");
    expect(entry.err).toBeUndefined();
  });

  test("a user who never chose keeps the menus per client language: nothing set for their chat", async () => {
    const user = await startedUser(h, "fa");
    await h.stopRuntime();
    await h.startRuntime();
    await balance(user);
    expect(callsFor(user.id)).toEqual([]);
    expect(inPersian(user.commandMenu())).toBe(true);
  });
});
