import { Api } from "grammy";
import pino from "pino";
import { createTelegramLink } from "../../src/platform/telegram/telegram-link";

/** A Bot API client of the stand-in with its Telegram link, as the worker wires them. */
export function linkedApi(tg: { token: string; apiRoot: string }) {
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const link = createTelegramLink({ probe: () => api.getMe(), logger: pino({ level: "silent" }) });
  api.config.use(link.transformer);
  return { api, link };
}
