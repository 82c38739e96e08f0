import { Api, GrammyError, HttpError } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { readableRefusals, retryTransient } from "../../../src/platform/telegram/api-transformers";
import { classifyTelegramError } from "../../../src/platform/telegram/telegram-error";

/** What the bot's API client makes of failures, against the Telegram stand-in. */
describe("Bot API refusals and failures in passing", () => {
  let tg: TelegramStandIn;
  let chatId: number;
  const pauses: Array<{ ms: number; method: string; reason: string }> = [];
  /** between tries: recorded, and `between` run (a test ends a fault there) */
  let between: () => void = () => {};
  const api = () => {
    const a = new Api(tg.token, { apiRoot: tg.apiRoot });
    a.config.use(readableRefusals());
    a.config.use(
      retryTransient({ attempts: 4, firstDelayMs: 5, maxDelayMs: 12 }, async (ms, info) => {
        pauses.push({ ms, method: info.method, reason: info.reason });
        between();
      }),
    );
    return a;
  };
  const sendCalls = () => tg.callsOf("sendMessage").length;

  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    const user = tg.user();
    await user.send("/start");
    chatId = user.chatId;
  });
  afterAll(async () => tg?.close());

  test("a bare 500 whose body is only a message is read as the server's words, not '(undefined: undefined)'", async () => {
    pauses.length = 0;
    // as many as the client tries: none is left for the next test
    tg.answerNext("sendMessage", { status: 500, body: { message: "sendMessage is not implemented" } }, 4);
    const failed = await api()
      .sendMessage(chatId, "hello")
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(GrammyError);
    const err = failed as GrammyError;
    expect(err.message).toBe("Call to 'sendMessage' failed! (500: sendMessage is not implemented)");
    expect(err.description).toBe("sendMessage is not implemented");
    expect(classifyTelegramError(err)).toEqual({ kind: "transient" });
    // a server failure: tried again with a doubling pause, up to the attempts
    expect(pauses.map((p) => p.ms)).toEqual([5, 10, 12]);
    expect(pauses[0]?.reason).toBe("500: sendMessage is not implemented");
  });

  test("a 502 in passing is tried again and the call goes through", async () => {
    pauses.length = 0;
    const before = sendCalls();
    tg.failNext("sendMessage", { code: 502, description: "Bad Gateway" }, 2);
    const sent = await api().sendMessage(chatId, "after the blip");
    expect(sent.text).toBe("after the blip");
    expect(sendCalls() - before).toBe(3);
    expect(pauses).toHaveLength(2);
  });

  test("a cut connection (grammY's HttpError) is tried again", async () => {
    pauses.length = 0;
    const faults = tg.randomFaults({ seed: 1, dropRate: 1, badGatewayRate: 0 });
    between = () => faults.stop();
    try {
      const sent = await api().sendMessage(chatId, "after the cut");
      expect(sent.text).toBe("after the cut");
      expect(pauses).toHaveLength(1);
      expect(pauses[0]?.reason).toMatch(/Network request for 'sendMessage' failed/);
    } finally {
      between = () => {};
      faults.stop();
    }
  });

  test("a refusal in Telegram's shape (4xx) is neither retried nor reworded", async () => {
    pauses.length = 0;
    const before = sendCalls();
    tg.failNext("sendMessage", { code: 400, description: "Bad Request: chat not found" });
    const failed = await api()
      .sendMessage(chatId, "refused")
      .catch((err: unknown) => err);
    expect((failed as GrammyError).message).toBe(
      "Call to 'sendMessage' failed! (400: Bad Request: chat not found)",
    );
    expect(sendCalls() - before).toBe(1);
    expect(pauses).toEqual([]);
  });

  test("a cosmetic call (a chat action, a menu) is tried once: its failure changes nothing a user needs", async () => {
    pauses.length = 0;
    tg.answerNext("sendChatAction", { status: 500, body: { message: "no chat actions here" } });
    tg.answerNext("setMyCommands", { status: 500, body: { message: "no menus here" } });
    const typing = await api()
      .sendChatAction(chatId, "typing")
      .catch((err: unknown) => err);
    const menu = await api()
      .setMyCommands([{ command: "start", description: "Start" }])
      .catch((err: unknown) => err);
    expect((typing as GrammyError).description).toBe("no chat actions here");
    expect((menu as GrammyError).description).toBe("no menus here");
    expect(pauses).toEqual([]);
  });

  test("a lost connection on the last try is thrown as it came", async () => {
    pauses.length = 0;
    const faults = tg.randomFaults({ seed: 2, dropRate: 1, badGatewayRate: 0 });
    try {
      const failed = await api()
        .sendMessage(chatId, "never")
        .catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(HttpError);
      expect(pauses).toHaveLength(3);
      expect(faults.drawn["drop-before"] + faults.drawn["drop-after"]).toBe(4);
    } finally {
      faults.stop();
    }
  });
});
