import type { BotCommand, KeyboardButton, MenuButton, Message } from "grammy/types";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { FeedEvent, MessageView } from "../feed-types";
import { api, type InlineAnswer, type PayRequest, type PlaygroundState } from "./api";
import { InlinePanel } from "./inline-panel";
import { Bubble, formatPrice, type MessageActions, payKey } from "./message";
import { MiniAppPanel } from "./mini-app";

interface Place {
  chatId: number;
  /** a forum topic of the group; undefined: the private chat or the group's General */
  threadId?: number | undefined;
}

interface Toast {
  id: number;
  text: string;
}

const isImage = (file: File) => /^image\/(png|jpeg)$/.test(file.type);

function upsert(list: MessageView[], view: MessageView): MessageView[] {
  const index = list.findIndex((m) => m.id === view.id);
  if (index === -1) return [...list, view].sort((a, b) => a.id - b.id);
  const next = [...list];
  next[index] = view;
  return next;
}

/** Messages Telegram draws as a line in the middle of the chat, not as a bubble. */
function serviceText(message: Message, botName: string): string | undefined {
  if (message.forum_topic_created) return `Topic “${message.forum_topic_created.name}” created`;
  const paid = message.successful_payment;
  if (paid) return `You paid ${formatPrice(paid.currency, paid.total_amount)} to ${botName} (test payment)`;
  const refunded = message.refunded_payment;
  if (refunded) return `${formatPrice(refunded.currency, refunded.total_amount)} refunded by ${botName}`;
  return undefined;
}

/** The query of `@bot …` typed in the composer; undefined when the text is not an inline query. */
function inlineQueryOf(text: string, username: string): string | undefined {
  const prefix = `@${username}`;
  if (text.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return undefined;
  const rest = text.slice(prefix.length);
  return /^\s/.test(rest) ? rest.trim() : undefined;
}

/** consecutive messages of one album become one bubble */
function bubbles(views: MessageView[]): MessageView[][] {
  const out: MessageView[][] = [];
  for (const view of views) {
    const last = out.at(-1);
    const album = view.message.media_group_id;
    if (last && album && last[0]!.message.media_group_id === album) last.push(view);
    else out.push([view]);
  }
  return out;
}

export function App() {
  const [state, setState] = useState<PlaygroundState>();
  const [userId, setUserId] = useState<number>();
  const [place, setPlace] = useState<Place>();
  const [byChat, setByChat] = useState<Record<number, MessageView[]>>({});
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [replyTo, setReplyTo] = useState<MessageView>();
  const [commands, setCommands] = useState<BotCommand[]>();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [alertText, setAlertText] = useState<string>();
  const [pending, setPending] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string>();
  const [connected, setConnected] = useState(false);
  const [inline, setInline] = useState<{ query: string; answer?: InlineAnswer }>();
  const [paid, setPaid] = useState<Set<string>>(new Set());
  const [menuButton, setMenuButton] = useState<MenuButton>();
  const [miniApp, setMiniApp] = useState<{ url: string; title: string }>();
  const listRef = useRef<HTMLDivElement>(null);
  const feedRef = useRef<HTMLDivElement>(null);
  /** the chat follows new messages while the reader is at its end */
  const stick = useRef(true);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void api.state().then((s) => {
      setState(s);
      const first = s.users[0]!;
      setUserId(first.id);
      setPlace({ chatId: first.id });
    });
  }, []);

  const load = (chatId: number) =>
    api.messages(chatId).then((list) => setByChat((all) => ({ ...all, [chatId]: list })));

  useEffect(() => {
    if (place) void load(place.chatId);
  }, [place?.chatId]);

  // the private chat's menu button: the bot sets it at start-up, and per chat for another language
  useEffect(() => {
    if (userId === undefined) return;
    setMenuButton(undefined);
    void api.menuButton(userId).then(setMenuButton, () => setMenuButton(undefined));
  }, [userId, place?.chatId]);

  useEffect(() => {
    const source = new EventSource("./api/events");
    source.addEventListener("ready", () => {
      setConnected(true);
      // anything missed while the stream was down
      setPlace((p) => {
        if (p) void load(p.chatId);
        return p;
      });
    });
    source.onerror = () => setConnected(false);
    source.addEventListener("feed", (e) => onFeed(JSON.parse((e as MessageEvent<string>).data) as FeedEvent));
    return () => source.close();
  }, []);

  function toast(textOf: string) {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t, { id, text: textOf }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 3500);
  }

  function onFeed(event: FeedEvent) {
    if (event.type === "answer") {
      setPending((p) => {
        const next = new Map(p);
        next.delete(event.queryId);
        return next;
      });
      if (event.text && event.alert) setAlertText(event.text);
      else if (event.text) toast(event.text);
      return;
    }
    if (event.type === "deleted") {
      setByChat((all) => ({
        ...all,
        [event.chatId]: (all[event.chatId] ?? []).filter((m) => m.id !== event.id),
      }));
      return;
    }
    const view = event.message;
    setByChat((all) => ({ ...all, [view.chatId]: upsert(all[view.chatId] ?? [], view) }));
  }

  const visible = useMemo(() => {
    if (!place) return [];
    const list = byChat[place.chatId] ?? [];
    if (!state || place.chatId !== state.group.id) return list;
    return list.filter((m) =>
      place.threadId === undefined
        ? !m.message.is_topic_message
        : m.message.message_thread_id === place.threadId && !m.message.forum_topic_created,
    );
  }, [byChat, place, state]);

  // whatever grows the chat (a message, an edit, a picture loading, a panel opening) keeps its end in view
  useEffect(() => {
    const list = listRef.current;
    const feedBox = feedRef.current;
    if (!list || !feedBox) return;
    let placed = list.scrollTop;
    const toEnd = () => {
      if (!stick.current) return;
      list.scrollTop = list.scrollHeight;
      placed = list.scrollTop;
    };
    // only the reader scrolling up lets go of the end; growth between a scroll and its event does not
    const onScroll = () => {
      if (list.scrollHeight - list.scrollTop - list.clientHeight < 40) stick.current = true;
      else if (list.scrollTop < placed - 1) stick.current = false;
      placed = list.scrollTop;
    };
    const observer = new ResizeObserver(toEnd);
    observer.observe(list);
    observer.observe(feedBox);
    list.addEventListener("scroll", onScroll);
    return () => {
      observer.disconnect();
      list.removeEventListener("scroll", onScroll);
    };
  }, [state !== undefined]);

  // before the new chat is drawn (and measured): a chat opens at its end, without the last one's menu
  useLayoutEffect(() => {
    stick.current = true;
    setCommands(undefined);
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [place?.chatId, place?.threadId]);

  const inlineQuery = state?.bot.username ? inlineQueryOf(text, state.bot.username) : undefined;
  useEffect(() => {
    if (inlineQuery === undefined || !place || userId === undefined) {
      setInline(undefined);
      return;
    }
    // a new query, person or chat: an answer to another is never shown (its results are not theirs to pick)
    setInline({ query: inlineQuery });
    let current = true;
    // Telegram's client asks as the user types, after a short pause
    const timer = setTimeout(() => {
      void api
        .inline({ user: userId, chatId: place.chatId, query: inlineQuery })
        .then((answer) => {
          if (current) setInline({ query: inlineQuery, answer });
        })
        .catch((err: unknown) => {
          if (current) setError(err instanceof Error ? err.message : String(err));
        });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [inlineQuery, place?.chatId, userId]);

  const lastBot = [...visible].reverse().find((m) => m.fromBot && m.markup);
  const replyKeyboard =
    lastBot?.markup && "keyboard" in lastBot.markup
      ? (lastBot.markup.keyboard as KeyboardButton[][])
      : undefined;
  const newest = visible.at(-1);
  const forceReply = newest?.fromBot && newest.markup && "force_reply" in newest.markup ? newest : undefined;

  if (!state || userId === undefined || !place) return <div class="loading">Loading the playground…</div>;
  const me = state.users.find((u) => u.id === userId)!;
  const inGroup = place.chatId === state.group.id;
  const nameOf = (view: MessageView) =>
    inGroup ? (view.fromBot ? state.bot.first_name : (view.message.from?.first_name ?? "")) : undefined;

  function switchUser(id: number) {
    setUserId(id);
    setMiniApp(undefined);
    setReplyTo(undefined);
    setCommands(undefined);
    setPlace((p) => (p && p.chatId === state!.group.id ? p : { chatId: id }));
  }

  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  async function send(textToSend: string) {
    stick.current = true;
    const target = replyTo ?? forceReply;
    const common = {
      user: userId!,
      chatId: place!.chatId,
      ...(target ? { replyTo: target.id } : {}),
      ...(place!.threadId ? { threadId: place!.threadId } : {}),
    };
    if (files.length > 0) {
      const form = new FormData();
      for (const [key, value] of Object.entries(common)) form.append(key, String(value));
      form.append("as", files.every(isImage) ? "photo" : "file");
      if (textToSend) form.append("caption", textToSend);
      for (const file of files) form.append("files", file, file.name);
      await api.upload(form);
      setFiles([]);
      if (fileInput.current) fileInput.current.value = "";
    } else {
      if (!textToSend.trim()) return;
      await api.send({ ...common, text: textToSend });
    }
    setText("");
    setReplyTo(undefined);
    setCommands(undefined);
  }

  const actions: MessageActions = {
    pending: new Set(pending.values()),
    paid,
    press(view, row, column) {
      void run(async () => {
        const { queryId } = await api.press({
          user: userId!,
          chatId: view.chatId,
          messageId: view.id,
          row,
          column,
        });
        setPending((p) => new Map(p).set(queryId, `${view.chatId}:${view.id}:${row}:${column}`));
      });
    },
    reply: (view) => setReplyTo(view),
    pay(view) {
      void payInvoice(payKey(view), { user: userId!, chatId: view.chatId, messageId: view.id }, true);
    },
    openApp(view, row, column) {
      void run(async () => {
        const { url } = await api.openApp({
          user: userId!,
          chatId: view.chatId,
          messageId: view.id,
          row,
          column,
        });
        const button = view.message.reply_markup?.inline_keyboard[row]?.[column];
        setMiniApp({ url, title: button?.text ?? state!.bot.first_name });
      });
    },
  };

  /**
   * Pays as Telegram's payment form does, for an invoice in the chat and for
   * one a Mini App opened alike: one payment at a time per key, the bot's
   * refusal shown as an alert. `keepPaid`: an invoice message shows its
   * receipt from then on (a link may be paid again).
   */
  async function payInvoice(key: string, body: PayRequest, keepPaid: boolean): Promise<boolean> {
    setError(undefined);
    setPending((p) => new Map(p).set(key, key));
    try {
      const outcome = await api.pay(body);
      if (outcome.ok) {
        if (keepPaid) setPaid((p) => new Set(p).add(key));
        return true;
      }
      setAlertText(outcome.error ?? "The payment did not go through.");
      return false;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return false;
    } finally {
      setPending((p) => {
        const next = new Map(p);
        next.delete(key);
        return next;
      });
    }
  }

  function openMenuApp() {
    void run(async () => {
      const { url } = await api.openApp({ user: userId!, chatId: userId! });
      setMiniApp({ url, title: menuButton?.type === "web_app" ? menuButton.text : state!.bot.first_name });
    });
  }

  function pickInline(resultId: string) {
    const queryId = inline?.answer?.queryId;
    if (!queryId) return;
    void run(async () => {
      stick.current = true;
      await api.choose({ user: userId!, chatId: place!.chatId, queryId, resultId });
      setText("");
    });
  }

  /** the results' button: Telegram opens the private chat with the bot and sends /start <parameter> */
  function openBotWith(startParameter: string) {
    void run(async () => {
      setText("");
      setPlace({ chatId: userId! });
      await api.send({ user: userId!, chatId: userId!, text: `/start ${startParameter}` });
    });
  }

  return (
    <div class="app">
      <header>
        <div class="title">
          <strong>{inGroup ? state.group.title : state.bot.first_name}</strong>
          <small>
            {inGroup
              ? `forum · ${state.users.length} members + bot · owner: ${state.group.owner}`
              : `@${state.bot.username}`}{" "}
            {connected ? "" : "· connecting…"}
          </small>
        </div>
        <label class="who">
          as{" "}
          <select
            data-testid="user-switcher"
            value={String(userId)}
            onChange={(e) => switchUser(Number((e.target as HTMLSelectElement).value))}
          >
            {state.users.map((u) => (
              <option value={String(u.id)} key={u.id}>
                {u.name} ({u.role})
              </option>
            ))}
          </select>
        </label>
      </header>
      <nav class="places">
        <button type="button" class={!inGroup ? "on" : ""} onClick={() => setPlace({ chatId: userId })}>
          🤖 Bot
        </button>
        <button
          type="button"
          class={inGroup && place.threadId === undefined ? "on" : ""}
          onClick={() => setPlace({ chatId: state.group.id })}
        >
          👥 General
        </button>
        {state.topics.map((t) => (
          <button
            type="button"
            key={t.id}
            class={inGroup && place.threadId === t.id ? "on" : ""}
            onClick={() => setPlace({ chatId: state.group.id, threadId: t.id })}
          >
            # {t.name}
          </button>
        ))}
      </nav>
      <main ref={listRef} class="messages" data-testid="messages">
        <div class="feed" ref={feedRef}>
          {visible.length === 0 ? <div class="empty">Say hello: send /start</div> : null}
          {bubbles(visible).map((views) => {
            const service = serviceText(views[0]!.message, state.bot.first_name);
            return service ? (
              <div class="service" key={views[0]!.id} data-testid="service" dir="auto">
                {service}
              </div>
            ) : (
              <Bubble views={views} senderName={nameOf(views[0]!)} actions={actions} key={views[0]!.id} />
            );
          })}
        </div>
      </main>
      <div class="toasts">
        {toasts.map((t) => (
          <div class="toast" key={t.id} data-testid="toast">
            {t.text}
          </div>
        ))}
      </div>
      {miniApp ? (
        <MiniAppPanel
          url={miniApp.url}
          title={miniApp.title}
          user={userId}
          payments={{ paid, pending: new Set(pending.values()) }}
          payLink={(slug) => payInvoice(`link:${slug}`, { user: userId, slug }, false)}
          onClose={() => setMiniApp(undefined)}
        />
      ) : null}
      {alertText ? (
        <div class="alert-backdrop">
          <div class="alert" role="alertdialog" data-testid="alert">
            <p>{alertText}</p>
            <button type="button" onClick={() => setAlertText(undefined)}>
              OK
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <div class="error" data-testid="error">
          {error}
        </div>
      ) : null}
      {commands ? (
        <div class="command-menu" data-testid="command-menu">
          {commands.length === 0 ? <div class="empty">No commands</div> : null}
          {commands.map((c) => (
            <button type="button" key={c.command} onClick={() => void run(() => send(`/${c.command}`))}>
              <span class="command">/{c.command}</span> <small dir="auto">{c.description}</small>
            </button>
          ))}
        </div>
      ) : null}
      {replyKeyboard ? (
        <div class="reply-keyboard">
          {replyKeyboard.map((row, r) => (
            <div class="row" key={`rk${r}`}>
              {row.map((b) => {
                const label = typeof b === "string" ? b : b.text;
                return (
                  <button type="button" key={label} dir="auto" onClick={() => void run(() => send(label))}>
                    {label}
                  </button>
                );
              })}
            </div>
          ))}
        </div>
      ) : null}
      {inline ? <InlinePanel answer={inline.answer} onPick={pickInline} onButton={openBotWith} /> : null}
      {replyTo || forceReply ? (
        <div class="replying" dir="auto">
          ↩ Replying to: {((replyTo ?? forceReply)!.message.text ?? "message").slice(0, 60)}
          {replyTo ? (
            <button type="button" onClick={() => setReplyTo(undefined)}>
              ✕
            </button>
          ) : null}
        </div>
      ) : null}
      {files.length > 0 ? (
        <div class="attachments" data-testid="attachments">
          📎 {files.map((f) => f.name).join(", ")}{" "}
          {files.every(isImage) && files.length > 1 ? `(album of ${files.length})` : ""}
          <button type="button" onClick={() => setFiles([])}>
            ✕
          </button>
        </div>
      ) : null}
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => send(text));
        }}
      >
        {!inGroup && menuButton?.type === "web_app" ? (
          <button type="button" class="menu-app" data-testid="menu-app" dir="auto" onClick={openMenuApp}>
            {menuButton.text}
          </button>
        ) : null}
        <button
          type="button"
          class="menu"
          data-testid="menu"
          title="Commands"
          onClick={() =>
            commands
              ? setCommands(undefined)
              : void run(async () => setCommands(await api.commands(me.id, place.chatId)))
          }
        >
          ☰
        </button>
        <label class="attach" title="Attach photos or files">
          📎
          <input
            ref={fileInput}
            type="file"
            multiple
            data-testid="attach"
            onChange={(e) => setFiles([...((e.target as HTMLInputElement).files ?? [])])}
          />
        </label>
        <input
          class="text-input"
          data-testid="composer"
          placeholder={files.length > 0 ? "Caption" : "Message"}
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
          dir="auto"
        />
        <button type="submit" class="send" data-testid="send">
          ➤
        </button>
      </form>
    </div>
  );
}
