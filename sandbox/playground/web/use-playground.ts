import type { BotCommand, KeyboardButton, MenuButton } from "grammy/types";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { MessageView } from "../feed-types";
import { api, type InvoiceDetails, type PayRequest, type PlaygroundState } from "./api";
import { type MessageActions, payKey } from "./message";
import { splitLongText } from "./split-text";
import { type PressAnswer, useChatFeed } from "./use-chat-feed";
import { useInlineQuery } from "./use-inline-query";

export interface Place {
  chatId: number;
  /** a forum topic of the group; undefined: the private chat or the group's General */
  threadId?: number | undefined;
}

export interface Toast {
  id: number;
  text: string;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const isImage = (file: File) => /^image\/(png|jpeg)$/.test(file.type);

/** Photos only (PNG or JPEG) go as photos, an album when there are several; anything else goes as files. */
export const allImages = (files: File[]) => files.every(isImage);

/** What the page tells the reader: toasts that go by themselves, an alert to dismiss, the last error. */
function useNotices() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [alertText, setAlertText] = useState<string>();
  const [error, setError] = useState<string>();

  function toast(text: string) {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t, { id, text }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 3500);
  }

  /** runs an action, its failure shown as the error */
  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return { toasts, toast, alertText, setAlertText, error, setError, run };
}

type Notices = ReturnType<typeof useNotices>;

/**
 * Presses waiting for the bot's answer (by query id) and payments under way
 * (by payment key), both valued by what they show as pending; and the
 * invoices paid from this page.
 */
function usePayments(notices: Notices) {
  const [pending, setPending] = useState<Map<string, string>>(new Map());
  const [paid, setPaid] = useState<Set<string>>(new Set());

  const start = (key: string, shown: string) => setPending((p) => new Map(p).set(key, shown));
  const settle = (key: string) =>
    setPending((p) => {
      const next = new Map(p);
      next.delete(key);
      return next;
    });

  /**
   * Pays as Telegram's payment form does, for an invoice in the chat and for
   * one a Mini App opened alike: one payment at a time per key, the bot's
   * refusal shown as an alert. `keepPaid`: an invoice message shows its
   * receipt from then on (a link may be paid again).
   */
  async function pay(key: string, body: PayRequest, keepPaid: boolean): Promise<boolean> {
    notices.setError(undefined);
    start(key, key);
    try {
      const outcome = await api.pay(body);
      if (outcome.ok) {
        if (keepPaid) setPaid((p) => new Set(p).add(key));
        return true;
      }
      notices.setAlertText(outcome.error ?? "The payment did not go through.");
      return false;
    } catch (err) {
      notices.setError(messageOf(err));
      return false;
    } finally {
      settle(key);
    }
  }

  return { pending: new Set(pending.values()), paid, start, settle, pay };
}

type Payments = ReturnType<typeof usePayments>;

/** What the reader is writing: the text, the files attached, and the message replied to. */
function useDraft() {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [replyTo, setReplyTo] = useState<MessageView>();
  const fileInput = useRef<HTMLInputElement>(null);
  return { text, setText, files, setFiles, replyTo, setReplyTo, fileInput };
}

export type Draft = ReturnType<typeof useDraft>;

/** The messages of the open place: a topic's own, or in the group's General those of no topic. */
function messagesIn(byChat: Record<number, MessageView[]>, place?: Place, state?: PlaygroundState) {
  if (!place) return [];
  const list = byChat[place.chatId] ?? [];
  if (!state || place.chatId !== state.group.id) return list;
  return list.filter((m) =>
    place.threadId === undefined
      ? !m.message.is_topic_message
      : m.message.message_thread_id === place.threadId && !m.message.forum_topic_created,
  );
}

/** The bot's latest reply keyboard, and its newest message when that one asks for a reply. */
function botMarkupIn(visible: MessageView[]) {
  const lastBot = [...visible].reverse().find((m) => m.fromBot && m.markup);
  const replyKeyboard =
    lastBot?.markup && "keyboard" in lastBot.markup
      ? (lastBot.markup.keyboard as KeyboardButton[][])
      : undefined;
  const newest = visible.at(-1);
  const forceReply = newest?.fromBot && newest.markup && "force_reply" in newest.markup ? newest : undefined;
  return { replyKeyboard, forceReply };
}

/**
 * Sends what the reader wrote, as `user` in `place`: the files attached (the
 * text their caption), else the text; false when there was nothing to send.
 */
async function sendDraft(
  draft: Draft,
  text: string,
  to: { user: number; place: Place; replyTo: MessageView | undefined },
): Promise<boolean> {
  const { place, replyTo } = to;
  const common = {
    user: to.user,
    chatId: place.chatId,
    ...(replyTo ? { replyTo: replyTo.id } : {}),
    ...(place.threadId ? { threadId: place.threadId } : {}),
  };
  const { files, fileInput } = draft;
  if (files.length > 0) {
    const form = new FormData();
    for (const [key, value] of Object.entries(common)) form.append(key, String(value));
    form.append("as", allImages(files) ? "photo" : "file");
    if (text) form.append("caption", text);
    for (const file of files) form.append("files", file, file.name);
    await api.upload(form);
    draft.setFiles([]);
    if (fileInput.current) fileInput.current.value = "";
    return true;
  }
  if (!text.trim()) return false;
  // as Telegram's clients do: a long text goes as several messages, in order, the first one the reply
  const { replyTo: _first, ...followUp } = common;
  for (const [i, part] of splitLongText(text).entries())
    await api.send({ ...(i === 0 ? common : followUp), text: part });
  return true;
}

/** What the buttons of a message do, pressed by `user`. */
function messageActions(
  user: number,
  page: {
    run: Notices["run"];
    payments: Payments;
    reply(view: MessageView): void;
    /** opens a Mini App titled with its button's text */
    openApp(url: string, buttonText: string | undefined): void;
    /** opens the payment form of an invoice link */
    openInvoice(slug: string): void;
  },
): MessageActions {
  const { run, payments } = page;
  return {
    pending: payments.pending,
    paid: payments.paid,
    press(view, row, column) {
      void run(async () => {
        const { queryId } = await api.press({ user, chatId: view.chatId, messageId: view.id, row, column });
        payments.start(queryId, `${view.chatId}:${view.id}:${row}:${column}`);
      });
    },
    reply: page.reply,
    pay(view) {
      void payments.pay(payKey(view), { user, chatId: view.chatId, messageId: view.id }, true);
    },
    openApp(view, row, column) {
      void run(async () => {
        const { url } = await api.openApp({ user, chatId: view.chatId, messageId: view.id, row, column });
        page.openApp(url, view.message.reply_markup?.inline_keyboard[row]?.[column]?.text);
      });
    },
    openInvoice: page.openInvoice,
  };
}

/**
 * The page's data and what the reader can do with it: the playground (the
 * bot, its users, the group and its topics), who the reader is and where,
 * each chat's messages, the command menu, the menu button, presses and
 * payments under way, and what the page tells the reader. Undefined until
 * the playground has loaded.
 */
export function usePlayground() {
  const [state, setState] = useState<PlaygroundState>();
  const [userId, setUserId] = useState<number>();
  const [place, setPlace] = useState<Place>();
  const [commands, setCommands] = useState<BotCommand[]>();
  const [menuButton, setMenuButton] = useState<MenuButton>();
  const [miniApp, setMiniApp] = useState<{ url: string; title: string }>();
  /** the payment form of an invoice link opened from the chat */
  const [invoice, setInvoice] = useState<{ slug: string; details: InvoiceDetails }>();
  const notices = useNotices();
  const payments = usePayments(notices);
  const draft = useDraft();
  /** the chat follows new messages while the reader is at its end */
  const stick = useRef(true);

  useEffect(() => {
    void api.state().then((s) => {
      setState(s);
      const first = s.users[0]!;
      setUserId(first.id);
      setPlace({ chatId: first.id });
    });
  }, []);

  const { byChat, connected } = useChatFeed(place?.chatId, (answer: PressAnswer) => {
    payments.settle(answer.queryId);
    if (answer.text && answer.alert) notices.setAlertText(answer.text);
    else if (answer.text) notices.toast(answer.text);
  });

  // the private chat's menu button: the bot sets it at start-up, and per chat for another language
  useEffect(() => {
    if (userId === undefined) return;
    setMenuButton(undefined);
    void api.menuButton(userId).then(setMenuButton, () => setMenuButton(undefined));
  }, [userId, place?.chatId]);

  // before the new chat is drawn: a chat opens without the last one's menu
  useLayoutEffect(() => setCommands(undefined), [place?.chatId, place?.threadId]);

  const inline = useInlineQuery(
    draft.text,
    { username: state?.bot.username, chatId: place?.chatId, userId },
    notices.setError,
  );
  const visible = useMemo(() => messagesIn(byChat, place, state), [byChat, place, state]);
  const { replyKeyboard, forceReply } = botMarkupIn(visible);

  // the bot sets a chat's own button when it meets its user or they choose a language: as in
  // Telegram, the button changes with it, not only when the chat is opened again
  const privateMessages = place?.chatId === userId ? visible.length : 0;
  useEffect(() => {
    if (userId === undefined || privateMessages === 0) return;
    void api.menuButton(userId).then(setMenuButton, () => undefined);
  }, [userId, privateMessages]);

  if (!state || userId === undefined || !place) return undefined;
  const inGroup = place.chatId === state.group.id;
  const { run } = notices;

  const send = async (text: string) => {
    stick.current = true;
    if (!(await sendDraft(draft, text, { user: userId, place, replyTo: draft.replyTo ?? forceReply })))
      return;
    draft.setText("");
    draft.setReplyTo(undefined);
    setCommands(undefined);
  };

  const actions = messageActions(userId, {
    run,
    payments,
    reply: draft.setReplyTo,
    openApp: (url, buttonText) => setMiniApp({ url, title: buttonText ?? state.bot.first_name }),
    openInvoice: (slug) =>
      void run(async () => setInvoice({ slug, details: await api.invoiceLink(userId, slug) })),
  });

  return {
    state,
    userId,
    place,
    inGroup,
    connected,
    visible,
    replyKeyboard,
    forceReply,
    commands,
    /** the menu button's label when it opens a Mini App (the private chat only) */
    menuApp: !inGroup && menuButton?.type === "web_app" ? menuButton.text : undefined,
    miniApp,
    invoice,
    closeInvoice: () => setInvoice(undefined),
    /** a month passes: the reader's Stars subscriptions renew (the payment delivered twice when asked) */
    renewSubscriptions: (twice: boolean) =>
      void run(async () => {
        const { renewed } = await api.renewSubscriptions({ user: userId, twice });
        notices.toast(renewed === 0 ? "No subscription renewed" : `${renewed} subscription renewed`);
      }),
    inline,
    draft,
    notices,
    payments,
    actions,
    stick,
    goTo: setPlace,
    switchUser(id: number) {
      setUserId(id);
      setMiniApp(undefined);
      setInvoice(undefined);
      draft.setReplyTo(undefined);
      setCommands(undefined);
      setPlace((p) => (p && p.chatId === state.group.id ? p : { chatId: id }));
    },
    send: (text: string) => void run(() => send(text)),
    toggleCommands() {
      if (commands) setCommands(undefined);
      else void run(async () => setCommands(await api.commands(userId, place.chatId)));
    },
    openMenuApp() {
      void run(async () => {
        const { url } = await api.openApp({ user: userId, chatId: userId });
        setMiniApp({ url, title: menuButton?.type === "web_app" ? menuButton.text : state.bot.first_name });
      });
    },
    closeMiniApp: () => setMiniApp(undefined),
    payLink: (slug: string) => payments.pay(`link:${slug}`, { user: userId, slug }, false),
    pickInline(resultId: string) {
      const queryId = inline?.answer?.queryId;
      if (!queryId) return;
      void run(async () => {
        stick.current = true;
        await api.choose({ user: userId, chatId: place.chatId, queryId, resultId });
        draft.setText("");
      });
    },
    /** the inline results' button: Telegram opens the private chat with the bot and sends /start <parameter> */
    openBotWith(startParameter: string) {
      void run(async () => {
        draft.setText("");
        setPlace({ chatId: userId });
        await api.send({ user: userId, chatId: userId, text: `/start ${startParameter}` });
      });
    },
  };
}
