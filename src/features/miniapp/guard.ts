import type { Context, MiddlewareHandler } from "hono";
import type { UserRecord, Users } from "../../domain/users/users";
import type { Translate, TranslateFor } from "../../platform/i18n/i18n";
import { type Language, languageFromCode } from "../../platform/i18n/language";
import type { Logger } from "../../platform/lib/logger";
import type { RateWindow } from "../../platform/lib/rate-window";
import { fail } from "./answers";
import { type AppCaller, callerOf } from "./auth";

/** What every handler of the API knows once the guards let a request in. */
export interface AppEnv {
  Variables: { caller: AppCaller; account: UserRecord; language: Language };
}

/** The guards a route adds to its own, built once for the whole API (api.ts). */
export interface RouteGuards {
  /** counts in the caller's rate window (`spendingLimit`) */
  spends: MiddlewareHandler<AppEnv>;
  /** refuses a JSON body too large to be a request, before it is read */
  smallBody: MiddlewareHandler<AppEnv>;
}

/** The caller's words: `t` in the language the guard chose (the chat's `ctx.t`). */
export function callerWords(c: Context<AppEnv>, t: TranslateFor): Translate {
  const language = c.get("language");
  return (key, vars) => t(language, key, vars);
}

export interface GuardDeps {
  botToken: string;
  users: Pick<Users, "get" | "touch">;
  adminIds: readonly number[];
  t: TranslateFor;
}

/**
 * Every call: the caller is who a valid initData says (401 otherwise, before
 * anything is read or written), recorded as seen like a chat update records
 * its sender, and stopped with the chat's banned notice when an admin banned
 * them (admins never are).
 */
export function callerGuard(deps: GuardDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = await callerOf(c.req.header("authorization"), deps.botToken);
    if (!caller) return fail(c, { error: "unauthorized" });
    const known = await deps.users.get(caller.id);
    const account = await deps.users.touch(
      {
        id: caller.id,
        first_name: caller.firstName,
        username: caller.username,
        language_code: caller.languageCode,
      },
      undefined,
      known,
    );
    const language = languageFromCode(account.language);
    if (account.bannedAt !== null && !deps.adminIds.includes(caller.id)) {
      return fail(c, { error: "banned", message: deps.t(language, "banned-notice") });
    }
    c.set("caller", caller);
    c.set("account", account);
    c.set("language", language);
    await next();
  };
}

/**
 * What spends (a generation, a send to the chat, an upload, an invoice, the
 * inputs a preset keeps) counts in the same per-user window as the user's chat
 * updates: one budget for both.
 */
export function spendingLimit(
  window: RateWindow,
  deps: Pick<GuardDeps, "adminIds" | "t"> & { logger: Logger },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { id } = c.get("caller");
    if (deps.adminIds.includes(id)) return next();
    const verdict = await window.verdict(String(id), (err) =>
      deps.logger.warn({ err }, "rate limit: redis failed, letting the request pass"),
    );
    if (verdict !== "pass") {
      return fail(c, {
        error: "rate_limited",
        message: deps.t(c.get("language"), "rate-limited"),
        retryAfterSeconds: Math.ceil(window.windowMs / 1000),
      });
    }
    await next();
  };
}
