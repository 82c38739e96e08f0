import { Api, BotError, Context, GrammyError, HttpError } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { handleBotError } from "../../src/bot/middleware/error-boundary";
import { translate } from "../../src/platform/i18n/i18n";
import { createLogger } from "../../src/platform/lib/logger";
import { testBotInfo } from "../support/bot-info";

/** An Api that records every call and answers `true`, as Telegram does for answer* methods. */
function recordingApi() {
  const calls: Array<{ method: string; payload: unknown }> = [];
  const api = new Api("0:test");
  api.config.use(async (prev, method, payload) => {
    calls.push({ method, payload });
    return { ok: true, result: true } as unknown as Awaited<ReturnType<typeof prev>>;
  });
  return { api, calls };
}

describe("the error boundary", () => {
  test("a pre-checkout query whose handling failed is still answered, refused in the payer's language", async () => {
    const { api, calls } = recordingApi();
    const update: Update = {
      update_id: 1,
      pre_checkout_query: {
        id: "pcq-1",
        from: { id: 7, is_bot: false, first_name: "Ada", language_code: "fa" },
        currency: "XTR",
        total_amount: 50,
        invoice_payload: "buy1:s:50:50:7",
      },
    };
    const ctx = new Context(update, api, testBotInfo) as unknown as BotContext;
    await handleBotError(new BotError(new Error("database unreachable"), ctx));
    expect(calls).toEqual([
      {
        method: "answerPreCheckoutQuery",
        payload: {
          pre_checkout_query_id: "pcq-1",
          ok: false,
          error_message: translate("fa", "error-generic"),
        },
      },
    ]);
  });

  /** A private message's context whose log lines are kept as written. */
  function loggedUpdate(updateId: number, text: string) {
    const { api } = recordingApi();
    const raw: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void raw.push(line) });
    const update: Update = {
      update_id: updateId,
      message: {
        message_id: 3,
        date: 0,
        chat: { id: 7, type: "private", first_name: "Ada" },
        from: { id: 7, is_bot: false, first_name: "Ada" },
        text,
      },
    };
    const ctx = new Context(update, api, testBotInfo) as unknown as BotContext;
    ctx.logger = logger.child({ updateId });
    return { ctx, raw };
  }

  test("Telegram out of reach (a lost connection, already tried again) is a warning, its update named once", async () => {
    const { ctx, raw } = loggedUpdate(41, "/broadcast");
    const lost = new HttpError(
      "Error inside conversation: Network request for 'sendMessage' failed!",
      new Error("reset"),
    );
    await handleBotError(new BotError(lost, ctx));
    const [line] = raw;
    expect(JSON.parse(line!)).toMatchObject({ level: 40, msg: "update failed", updateId: 41 });
    expect(line!.match(/"updateId"/g)).toHaveLength(1);
  });

  test("a chat closed to the bot (blocked, no rights) is a warning, and nobody is told", async () => {
    const { ctx, raw } = loggedUpdate(43, "/balance");
    const refused = new GrammyError(
      "Call to 'sendMessage' failed!",
      { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
      "sendMessage",
      {},
    );
    await handleBotError(new BotError(refused, ctx));
    expect(raw.map((l) => JSON.parse(l) as { level: number; msg: string })).toEqual([
      expect.objectContaining({ level: 40, msg: "update failed" }),
    ]);
  });

  test("a bug of ours is still an error", async () => {
    const { ctx, raw } = loggedUpdate(42, "x");
    await handleBotError(new BotError(new TypeError("x is undefined"), ctx));
    expect(JSON.parse(raw[0]!)).toMatchObject({ level: 50, msg: "update failed" });
  });
});
