import { type Api, Bot } from "grammy";
import type { BotCommandScope } from "grammy/types";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";

/**
 * The command menu a client shows, resolved as the Bot API documents it
 * ("Determining list of commands"): each menu is set with its own label as
 * the only description, then the menus are deleted one by one in the
 * documented order; what each viewer sees at each step, with repeats
 * collapsed, is that viewer's resolution order.
 */

let tg: TelegramStandIn;
let api: Api;

beforeEach(async () => {
  tg = await startTelegramStandIn({ rules: { flood: false } });
  api = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } }).api;
});

afterEach(async () => {
  await tg.close();
});

interface Level {
  label: string;
  scope: BotCommandScope;
  language?: "fa";
}

/** Each scope in Persian, then without a language: the pair Telegram tries in that order. */
function both(label: string, scope: BotCommandScope): Level[] {
  return [
    { label: `${label}+fa`, scope, language: "fa" },
    { label, scope },
  ];
}

async function setAll(levels: Level[]) {
  for (const { label, scope, language } of levels) {
    await api.setMyCommands([{ command: "menu", description: label }], {
      scope,
      ...(language ? { language_code: language } : {}),
    });
  }
}

/** What each viewer sees while the levels are deleted in order, repeats collapsed. */
async function seenWhileDeleting(levels: Level[], viewers: Record<string, () => string>) {
  const seen: Record<string, string[]> = Object.fromEntries(Object.keys(viewers).map((v) => [v, []]));
  const look = () => {
    for (const [name, view] of Object.entries(viewers)) {
      const list = seen[name]!;
      const now = view();
      if (list.at(-1) !== now) list.push(now);
    }
  };
  look();
  for (const { scope, language } of levels) {
    await api.deleteMyCommands({ scope, ...(language ? { language_code: language } : {}) });
    look();
  }
  return seen;
}

const label = (menu: Array<{ description: string }>) => menu.map((c) => c.description).join(",") || "none";

describe("which menu a viewer sees", () => {
  test("in a private chat: the chat, all private chats, default; each in the viewer's language first", async () => {
    const persian = tg.user({ language: "fa", started: true });
    const english = tg.user({ language: "en", started: true });
    const levels: Level[] = [
      ...both("chat", { type: "chat", chat_id: persian.id }),
      ...both("all_private_chats", { type: "all_private_chats" }),
      // group scopes never reach a private chat
      ...both("all_group_chats", { type: "all_group_chats" }),
      ...both("all_chat_administrators", { type: "all_chat_administrators" }),
      ...both("default", { type: "default" }),
    ];
    await setAll(levels);

    const seen = await seenWhileDeleting(levels, {
      persian: () => label(persian.commandMenu()),
      english: () => label(english.commandMenu()),
      // the same chat through the stand-in's own door
      persianByChat: () => label(tg.commandMenu(persian.chatId, { language: "fa" })),
    });
    expect(seen.persian).toEqual([
      "chat+fa",
      "chat",
      "all_private_chats+fa",
      "all_private_chats",
      "default+fa",
      "default",
      "none",
    ]);
    expect(seen.persianByChat).toEqual(seen.persian);
    // another user's chat scope is not theirs; a Persian menu is not for an English client
    expect(seen.english).toEqual(["all_private_chats", "default", "none"]);
  });

  test("in a group: the member, the chat's admins, the chat, all admins, all groups, default; admin scopes only for admins", async () => {
    const admin = tg.user({ language: "fa" });
    const creator = tg.user({ language: "en" });
    const member = tg.user({ language: "fa" });
    const plain = tg.user({ language: "en" });
    const group = tg.group({ members: [member, plain], admins: [admin], creator });
    const levels: Level[] = [
      ...both("member:admin", { type: "chat_member", chat_id: group.id, user_id: admin.id }),
      ...both("member:member", { type: "chat_member", chat_id: group.id, user_id: member.id }),
      ...both("chat_administrators", { type: "chat_administrators", chat_id: group.id }),
      ...both("chat", { type: "chat", chat_id: group.id }),
      ...both("all_chat_administrators", { type: "all_chat_administrators" }),
      ...both("all_group_chats", { type: "all_group_chats" }),
      // never in a group
      ...both("all_private_chats", { type: "all_private_chats" }),
      ...both("default", { type: "default" }),
    ];
    await setAll(levels);

    const seen = await seenWhileDeleting(levels, {
      admin: () => label(admin.commandMenu({ in: group })),
      creator: () => label(creator.commandMenu({ in: group })),
      member: () => label(member.commandMenu({ in: group })),
      plain: () => label(plain.commandMenu({ in: group })),
      memberByChat: () => label(tg.commandMenu(group.id, { userId: member.id, language: "fa" })),
    });
    expect(seen.admin).toEqual([
      "member:admin+fa",
      "member:admin",
      "chat_administrators+fa",
      "chat_administrators",
      "chat+fa",
      "chat",
      "all_chat_administrators+fa",
      "all_chat_administrators",
      "all_group_chats+fa",
      "all_group_chats",
      "default+fa",
      "default",
      "none",
    ]);
    // the creator is an admin too; an English client skips the Persian menus
    expect(seen.creator).toEqual([
      "chat_administrators",
      "chat",
      "all_chat_administrators",
      "all_group_chats",
      "default",
      "none",
    ]);
    expect(seen.member).toEqual([
      "member:member+fa",
      "member:member",
      "chat+fa",
      "chat",
      "all_group_chats+fa",
      "all_group_chats",
      "default+fa",
      "default",
      "none",
    ]);
    expect(seen.memberByChat).toEqual(seen.member);
    expect(seen.plain).toEqual(["chat", "all_group_chats", "default", "none"]);
  });

  test("a demoted admin loses the admins' menu at once; the private chat keeps its own menu", async () => {
    const admin = tg.user({ language: "en", started: true });
    const group = tg.group({ members: [], admins: [admin] });
    await setAll([
      { label: "admins", scope: { type: "all_chat_administrators" } },
      { label: "groups", scope: { type: "all_group_chats" } },
      { label: "private", scope: { type: "all_private_chats" } },
    ]);
    expect(label(admin.commandMenu({ in: group }))).toBe("admins");
    expect(label(admin.commandMenu())).toBe("private");
    group.demote(admin);
    expect(label(admin.commandMenu({ in: group }))).toBe("groups");
  });
});

describe("every scope is accepted and checked as Telegram does", () => {
  test("chat_member and chat_administrators are stored, read and deleted per group (and per user)", async () => {
    const admin = tg.user();
    const member = tg.user();
    const group = tg.group({ members: [member], admins: [admin] });
    const forMember = { type: "chat_member", chat_id: group.id, user_id: member.id } as const;
    const forAdmins = { type: "chat_administrators", chat_id: group.id } as const;
    await api.setMyCommands([{ command: "mine", description: "Mine" }], { scope: forMember });
    await api.setMyCommands([{ command: "admins", description: "Admins" }], {
      scope: forAdmins,
      language_code: "fa",
    });
    expect(await api.getMyCommands({ scope: forMember })).toEqual([{ command: "mine", description: "Mine" }]);
    expect(
      await api.getMyCommands({ scope: { ...forMember, user_id: admin.id } }),
      "another member's menu",
    ).toEqual([]);
    expect(await api.getMyCommands({ scope: forAdmins })).toEqual([]);
    expect(await api.getMyCommands({ scope: forAdmins, language_code: "fa" })).toHaveLength(1);
    await api.deleteMyCommands({ scope: forMember });
    expect(await api.getMyCommands({ scope: forMember })).toEqual([]);
    await api.deleteMyCommands({ scope: forAdmins, language_code: "fa" });
    expect(await api.getMyCommands({ scope: forAdmins, language_code: "fa" })).toEqual([]);
  });

  test("unknown chats and users, per-group scopes on a private chat, and missing fields are refused", async () => {
    const started = tg.user({ started: true });
    const stranger = tg.user();
    const member = tg.user();
    const group = tg.group({ members: [member] });
    const commands = JSON.stringify([{ command: "x", description: "x" }]);
    const refusal = async (scope: Record<string, unknown>, method = "setMyCommands") => {
      const answer = await tg.call(method, {
        ...(method === "setMyCommands" ? { commands } : {}),
        scope: JSON.stringify(scope),
      });
      return answer.ok ? "accepted" : `${answer.error_code} ${answer.description}`;
    };

    for (const method of ["setMyCommands", "getMyCommands", "deleteMyCommands"]) {
      expect(await refusal({ type: "chat", chat_id: -1_009_999 }, method)).toBe(
        "400 Bad Request: chat not found",
      );
    }
    expect(await refusal({ type: "chat_administrators", chat_id: -1_009_999 })).toBe(
      "400 Bad Request: chat not found",
    );
    expect(await refusal({ type: "chat_member", chat_id: -1_009_999, user_id: member.id })).toBe(
      "400 Bad Request: chat not found",
    );
    // a user who never wrote to the bot is a chat it does not know
    expect(await refusal({ type: "chat", chat_id: stranger.id })).toBe("400 Bad Request: chat not found");
    expect(await refusal({ type: "chat_administrators", chat_id: started.id })).toBe(
      "400 Bad Request: can't use specified scope in private chats",
    );
    expect(await refusal({ type: "chat_member", chat_id: started.id, user_id: started.id })).toBe(
      "400 Bad Request: can't use specified scope in private chats",
    );
    expect(await refusal({ type: "chat_member", chat_id: group.id, user_id: 42 })).toBe(
      "400 Bad Request: user not found",
    );
    expect(await refusal({ type: "chat_member", chat_id: group.id })).toMatch(
      /^400 Bad Request: can't parse bot command scope: user_id/,
    );
    expect(await refusal({ type: "chat_member", user_id: member.id })).toMatch(
      /^400 Bad Request: can't parse bot command scope: chat_id/,
    );
    expect(await refusal({ type: "everyone" })).toMatch(/^400 Bad Request: can't parse bot command scope/);

    expect(await refusal({ type: "chat", chat_id: started.id })).toBe("accepted");
    expect(await refusal({ type: "chat", chat_id: group.id })).toBe("accepted");
    expect(await refusal({ type: "chat_administrators", chat_id: group.id })).toBe("accepted");
    expect(await refusal({ type: "chat_member", chat_id: group.id, user_id: member.id })).toBe("accepted");
    for (const type of ["default", "all_private_chats", "all_group_chats", "all_chat_administrators"]) {
      expect(await refusal({ type })).toBe("accepted");
    }
  });
});
