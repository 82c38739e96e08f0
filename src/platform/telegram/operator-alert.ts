import type { Api } from "grammy";
import type { Redis } from "ioredis";
import { translate } from "../i18n/i18n";
import { type Language, languageFromCode } from "../i18n/language";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";

export type AlertKind =
  | "service-refused"
  | "audit"
  | "undeliverable"
  | "orphan"
  | "backlog"
  | "payment-unreadable";

export interface AdminAlertDeps {
  api: Api;
  redis: Redis;
  /** Redis key prefix shared by every process of this bot */
  prefix: string;
  adminIds: readonly number[];
  clock: Clock;
  logger: Logger;
  /** the admin's saved language (English when unknown) */
  languageOf(adminId: number): Promise<Language | undefined>;
  /** clock ms: each kind reaches the admins at most once per window */
  windowMs(kind: AlertKind): number;
}

export type AdminAlert = (kind: AlertKind, vars: Record<string, string | number>) => Promise<void>;

/**
 * Tells every admin, in their language, of something an operator must look
 * at. Each kind is sent at most once per window, whichever process noticed
 * first (the marker lives in Redis). The warning in the log goes with the
 * message: once per window too, by the process that sent it; an alert
 * repeated within the window leaves no line of its own.
 */
export function adminAlerts(deps: AdminAlertDeps): AdminAlert {
  return async (kind, vars) => {
    const key = `${deps.prefix}:alert:${kind}`;
    const first = await deps.redis.set(key, "1", "PX", deps.clock.toReal(deps.windowMs(kind)), "NX");
    if (first !== "OK") return;
    deps.logger.warn({ alert: kind, ...vars }, "alert to the admins");
    for (const admin of deps.adminIds) {
      const language = languageFromCode(await deps.languageOf(admin).catch(() => undefined));
      await deps.api.sendMessage(admin, translate(language, `alert-${kind}`, vars)).catch(() => undefined);
    }
  };
}

/** The service refused our key, balance or URL: told once per submit pause (`pauseMs`). */
export function operatorAlert(
  deps: Omit<AdminAlertDeps, "languageOf" | "windowMs"> & {
    pauseMs: number;
    languageOf?: AdminAlertDeps["languageOf"];
  },
) {
  const alert = adminAlerts({
    ...deps,
    languageOf: deps.languageOf ?? (async () => undefined),
    windowMs: () => deps.pauseMs,
  });
  return (problem: string) => alert("service-refused", { problem });
}
