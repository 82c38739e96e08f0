import type { BotCommand, InlineQueryResult, InlineQueryResultsButton, MenuButton, User } from "grammy/types";
import type { MessageView } from "../feed-types";

export interface Person {
  id: number;
  name: string;
  username?: string;
  language?: string;
  role: string;
  admin: boolean;
}

export interface PlaygroundState {
  bot: User;
  users: Person[];
  group: { id: number; title: string; owner: string };
  topics: Array<{ id: number; name: string }>;
}

/** The bot's answer to an inline query, as the results panel draws it. */
export interface InlineAnswer {
  queryId: string;
  results: InlineQueryResult[];
  button?: InlineQueryResultsButton;
}

/** An invoice link's card, as Telegram's payment form shows it. */
export interface InvoiceDetails {
  title: string;
  description: string;
  currency: string;
  total: number;
  /** a subscription's link: charged again each period (seconds) */
  subscriptionPeriod?: number;
}

/** An invoice in the chat (its message), or an invoice link a Mini App opened (its slug). */
export type PayRequest = { user: number } & ({ chatId: number; messageId: number } | { slug: string });

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`./api/${path}`, init);
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

const post = <T>(path: string, body: unknown) =>
  call<T>(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

export const api = {
  state: () => call<PlaygroundState>("state"),
  messages: (chatId: number) => call<MessageView[]>(`chats/${chatId}/messages`),
  commands: (user: number, chat: number) => call<BotCommand[]>(`commands?user=${user}&chat=${chat}`),
  send: (body: { user: number; chatId: number; text: string; replyTo?: number; threadId?: number }) =>
    post<{ id: number }>("send", body),
  press: (body: { user: number; chatId: number; messageId: number; row: number; column: number }) =>
    post<{ queryId: string }>("press", body),
  pay: (body: PayRequest) => post<{ ok: boolean; error?: string }>("pay", body),
  /** a subscription period passes for `user`: Telegram renews (or ends) their Stars subscriptions */
  renewSubscriptions: (body: { user: number; twice: boolean }) =>
    post<{ renewed: number }>("subscriptions/renew", body),
  invoiceLink: (user: number, slug: string) =>
    call<InvoiceDetails>(`invoice-links/${encodeURIComponent(slug)}?user=${user}`),
  menuButton: (user: number) => call<MenuButton>(`menu-button?user=${user}`),
  /** the Mini App's URL with its launch parameters: from the menu button, or a message's web_app button */
  openApp: (body: { user: number; chatId: number; messageId?: number; row?: number; column?: number }) =>
    post<{ url: string }>("webapp/open", body),
  inline: (body: { user: number; chatId: number; query: string }) => post<InlineAnswer>("inline", body),
  choose: (body: { user: number; chatId: number; queryId: string; resultId: string }) =>
    post<{ id: number }>("inline/choose", body),
  upload: (form: FormData) => call<{ ids: number[] }>("upload", { method: "POST", body: form }),
  fileUrl: (fileId: string) => `./api/files/${encodeURIComponent(fileId)}`,
};
