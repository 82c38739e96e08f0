import { z } from "zod";
import { ApiError, badRequest } from "../errors";
import { checkInlineResult, checkInlineResultsButton } from "../inline";
import type { Params } from "../params";
import { inlineResultsSchema } from "../schemas";
import type { MethodHandler, World } from "../world";

const queryTooOld = () => badRequest("query is too old and response timeout expired or query ID is invalid");

function freshQuery<T extends { at: number; answer?: unknown }>(w: World, query: T | undefined): T {
  if (!query || query.answer !== undefined) throw queryTooOld();
  if (Date.now() - query.at > w.rules.queryMaxAgeMs) throw queryTooOld();
  return query;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

export const queryMethods: Record<string, MethodHandler> = {
  answerCallbackQuery(w, p) {
    const query = freshQuery(w, w.callbackQueries.get(p.string("callback_query_id") ?? ""));
    const text = p.string("text");
    if (text !== undefined && text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
    query.answer = {
      ...optional("text", text),
      ...optional("show_alert", p.bool("show_alert")),
      ...optional("url", p.string("url")),
      ...optional("cache_time", p.int("cache_time")),
    };
    const chat = query.chatId === undefined ? undefined : w.chats.get(query.chatId);
    if (chat) {
      const shown = text
        ? `${query.answer.show_alert ? "alert" : "toast"} ${JSON.stringify(text)}`
        : "(no text)";
      w.chats.log(chat, `bot answered button press: ${shown}`);
    }
    w.notify();
    return true;
  },

  answerInlineQuery(w, p: Params) {
    const query = freshQuery(w, w.inlineQueries.get(p.string("inline_query_id") ?? ""));
    const results = p.json("results", inlineResultsSchema, "results") ?? [];
    if (results.length > w.rules.maxInlineResults) throw badRequest("RESULTS_TOO_MUCH");
    const ids = new Set<string>();
    for (const result of results) {
      const bytes = Buffer.byteLength(result.id, "utf8");
      if (bytes < 1 || bytes > 64) throw badRequest("RESULT_ID_INVALID");
      if (ids.has(result.id)) throw badRequest("RESULT_ID_DUPLICATE");
      ids.add(result.id);
      checkInlineResult(w, result);
    }
    const rawButton = p.json("button", z.unknown(), "button");
    const button = rawButton === undefined ? undefined : checkInlineResultsButton(rawButton);
    query.answer = {
      results,
      ...optional("button", button),
      ...optional("cache_time", p.int("cache_time")),
      ...optional("is_personal", p.bool("is_personal")),
      ...optional("next_offset", p.string("next_offset")),
    };
    w.notify();
    return true;
  },

  answerPreCheckoutQuery(w, p) {
    const id = p.string("pre_checkout_query_id") ?? "";
    const query = w.preCheckouts.get(id);
    if (!query || Date.now() - query.at > w.rules.preCheckoutTimeoutMs) throw queryTooOld();
    const ok = p.bool("ok");
    if (ok === undefined) throw badRequest("ok is empty");
    const errorMessage = p.string("error_message");
    if (!ok && !errorMessage) throw new ApiError(400, "Bad Request: ERROR_MESSAGE_EMPTY");
    w.preCheckouts.delete(id);
    query.settle({ ok, ...optional("error_message", errorMessage) });
    return true;
  },
};
