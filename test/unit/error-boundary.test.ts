import { Api, BotError, Context } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { handleBotError } from "../../src/bot/middleware/error-boundary";
import { translate } from "../../src/i18n/i18n";
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
});
