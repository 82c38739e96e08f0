import { GrammyError, HttpError } from "grammy";
import { describe, expect, test } from "vitest";
import {
  classifyTelegramAnswer,
  classifyTelegramError,
  isTelegramFailure,
  type TelegramFailure,
} from "../../../src/platform/telegram/telegram-error";

/** Error answers as the Bot API sends them (code, description, parameters). */
const realAnswers: Array<[number, string, TelegramFailure, Record<string, number>?]> = [
  [429, "Too Many Requests: retry after 35", { kind: "flood", retryAfter: 35 }, { retry_after: 35 }],
  [
    400,
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    { kind: "not-modified" },
  ],
  [400, "Bad Request: message to edit not found", { kind: "message-gone" }],
  [400, "Bad Request: message can't be edited", { kind: "message-gone" }],
  [400, "Bad Request: message to delete not found", { kind: "message-gone" }],
  [400, "Bad Request: message can't be deleted for everyone", { kind: "message-gone" }],
  [400, "Bad Request: message to be replied not found", { kind: "message-gone" }],
  [403, "Forbidden: bot was blocked by the user", { kind: "blocked" }],
  [403, "Forbidden: user is deactivated", { kind: "blocked" }],
  [403, "Forbidden: bot can't initiate conversation with a user", { kind: "blocked" }],
  [403, "Forbidden: bot was kicked from the supergroup chat", { kind: "chat-unreachable" }],
  [403, "Forbidden: bot is not a member of the channel chat", { kind: "chat-unreachable" }],
  [403, "Forbidden: the group chat was deleted", { kind: "chat-unreachable" }],
  [403, "Forbidden: bot can't send messages to bots", { kind: "chat-unreachable" }],
  [400, "Bad Request: chat not found", { kind: "chat-unreachable" }],
  [400, "Bad Request: user not found", { kind: "chat-unreachable" }],
  [400, "Bad Request: not enough rights to send photos to the chat", { kind: "chat-unreachable" }],
  [400, "Bad Request: have no rights to send a message", { kind: "chat-unreachable" }],
  [400, "Bad Request: CHAT_WRITE_FORBIDDEN", { kind: "chat-unreachable" }],
  [400, "Bad Request: TOPIC_CLOSED", { kind: "topic-closed" }],
  [400, "Bad Request: TOPIC_DELETED", { kind: "topic-closed" }],
  [400, "Bad Request: message thread not found", { kind: "topic-closed" }],
  [
    400,
    "Bad Request: query is too old and response timeout expired or query ID is invalid",
    { kind: "query-expired" },
  ],
  [
    400,
    "Bad Request: group chat was upgraded to a supergroup chat",
    { kind: "chat-migrated", chatId: -1001234567890 },
    { migrate_to_chat_id: -1001234567890 },
  ],
  [400, "Bad Request: wrong file identifier/HTTP URL specified", { kind: "rejected" }],
  [400, "Bad Request: failed to get HTTP URL content", { kind: "rejected" }],
  [400, "Bad Request: PHOTO_INVALID_DIMENSIONS", { kind: "rejected" }],
  [
    400,
    "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 12",
    { kind: "rejected" },
  ],
  [413, "Request Entity Too Large", { kind: "rejected" }],
  [401, "Unauthorized", { kind: "operator", reason: "unauthorized" }],
  [404, "Not Found", { kind: "operator", reason: "unauthorized" }],
  [
    409,
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    { kind: "operator", reason: "conflict" },
  ],
  [500, "Internal Server Error", { kind: "transient" }],
  [502, "Bad Gateway", { kind: "transient" }],
];

describe("the Telegram error classifier", () => {
  test.each(realAnswers)("%i %s", (code, description, expected, parameters) => {
    const answer = { error_code: code, description, ...(parameters ? { parameters } : {}) };
    expect(classifyTelegramAnswer(answer)).toEqual(expected);
    const thrown = new GrammyError("call failed", { ok: false, ...answer }, "sendMessage", {});
    expect(classifyTelegramError(thrown)).toEqual(expected);
  });

  test("a 429 without retry_after still waits a second", () => {
    expect(classifyTelegramAnswer({ error_code: 429, description: "Too Many Requests" })).toEqual({
      kind: "flood",
      retryAfter: 1,
    });
  });

  test("a network failure is transient; an error of ours is not Telegram's", () => {
    expect(
      classifyTelegramError(
        new HttpError("Network request for 'sendMessage' failed!", new Error("ECONNRESET")),
      ),
    ).toEqual({ kind: "transient" });
    expect(classifyTelegramError(new TypeError("x is undefined"))).toBeNull();
    expect(isTelegramFailure(new TypeError("not modified"), "not-modified")).toBe(false);
  });

  test("isTelegramFailure matches any of the kinds asked", () => {
    const gone = new GrammyError(
      "call failed",
      { ok: false, error_code: 400, description: "Bad Request: message to edit not found" },
      "editMessageText",
      {},
    );
    expect(isTelegramFailure(gone, "not-modified", "message-gone")).toBe(true);
    expect(isTelegramFailure(gone, "not-modified")).toBe(false);
  });
});
