import fc from "fast-check";
import type { Chat, Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { updateSequenceKeys } from "../../src/bot/update-keys";

const person = (id: number) => ({ id, is_bot: false, first_name: `P${id}` });
const privateChat = (id: number): Chat.PrivateChat => ({ id, type: "private", first_name: `P${id}` });
const group = (id: number): Chat.SupergroupChat => ({ id, type: "supergroup", title: `G${id}` });

function message(updateId: number, chat: Chat, from: number): Update {
  return {
    update_id: updateId,
    message: { message_id: updateId, date: 0, chat, from: person(from), text: "hi" },
  } as Update;
}

function inlineQuery(updateId: number, from: number): Update {
  return {
    update_id: updateId,
    inline_query: { id: `q${updateId}`, from: person(from), query: "", offset: "" },
  };
}

describe("the keys an update is ordered by", () => {
  it("a private chat is its user's: one key", () => {
    expect(updateSequenceKeys(message(1, privateChat(5), 5))).toEqual(["user:5"]);
  });

  it("a group message holds the group and its sender", () => {
    expect(updateSequenceKeys(message(1, group(-100), 5))).toEqual(["chat:-100", "user:5"]);
  });

  it("an update without a chat holds its sender", () => {
    expect(updateSequenceKeys(inlineQuery(1, 5))).toEqual(["user:5"]);
  });

  it("two updates sharing a chat or a sender share a key", () => {
    // ids 1..4 are people (and so their private chats); negative ids are groups
    const chatId = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -3, max: -1 }));
    const anUpdate = fc.record({
      chat: fc.option(chatId, { nil: undefined }),
      from: fc.integer({ min: 1, max: 4 }),
    });
    const build = (u: { chat: number | undefined; from: number }, id: number) =>
      u.chat === undefined
        ? inlineQuery(id, u.from)
        : message(id, u.chat > 0 ? privateChat(u.chat) : group(u.chat), u.from);
    fc.assert(
      fc.property(anUpdate, anUpdate, (a, b) => {
        const related = (a.chat !== undefined && a.chat === b.chat) || a.from === b.from;
        const ka = updateSequenceKeys(build(a, 1));
        const kb = updateSequenceKeys(build(b, 2));
        if (related) expect(ka.some((k) => kb.includes(k))).toBe(true);
        expect(ka.length).toBeLessThanOrEqual(2);
      }),
    );
  });
});
