import { useEffect, useRef, useState } from "preact/hooks";
import type { FeedEvent, MessageView } from "../feed-types";
import { api } from "./api";

/** The bot's answer to a button press, told on the same stream as the messages. */
export type PressAnswer = Extract<FeedEvent, { type: "answer" }>;

type ChatEvent = Exclude<FeedEvent, { type: "answer" }>;

const chatOf = (event: ChatEvent) => (event.type === "deleted" ? event.chatId : event.message.chatId);

/** A chat's messages after one event of the stream. */
function applied(list: MessageView[], event: ChatEvent): MessageView[] {
  if (event.type === "deleted") return list.filter((m) => m.id !== event.id);
  const view = event.message;
  const index = list.findIndex((m) => m.id === view.id);
  if (index === -1) return [...list, view].sort((a, b) => a.id - b.id);
  const next = [...list];
  next[index] = view;
  return next;
}

/**
 * Each chat's messages by chat id: the open chat's are loaded when it opens
 * and again whenever the server's event stream (re)connects; the stream's
 * new, edited and deleted messages keep every chat current. Answers to
 * button presses go to `onAnswer`.
 */
export function useChatFeed(openChatId: number | undefined, onAnswer: (answer: PressAnswer) => void) {
  const [byChat, setByChat] = useState<Record<number, MessageView[]>>({});
  const [connected, setConnected] = useState(false);
  // the stream is opened once; its listeners read the chat and handler of the latest render
  const latest = useRef({ openChatId, onAnswer });
  latest.current = { openChatId, onAnswer };

  // per chat, the stream's events that came while a load of it was on its way: the list it
  // returns was read before them, so they are applied again over it (else a slow load would
  // take back a message the stream had just shown)
  const loading = useRef(new Map<number, Set<ChatEvent[]>>());
  const load = async (chatId: number) => {
    const came: ChatEvent[] = [];
    const pending = loading.current.get(chatId) ?? new Set();
    loading.current.set(chatId, pending.add(came));
    try {
      const list = await api.messages(chatId);
      setByChat((all) => ({ ...all, [chatId]: came.reduce(applied, list) }));
    } finally {
      pending.delete(came);
      if (pending.size === 0) loading.current.delete(chatId);
    }
  };

  useEffect(() => {
    if (openChatId !== undefined) void load(openChatId);
  }, [openChatId]);

  useEffect(() => {
    const onFeed = (event: FeedEvent) => {
      if (event.type === "answer") {
        latest.current.onAnswer(event);
        return;
      }
      const chatId = chatOf(event);
      for (const came of loading.current.get(chatId) ?? []) came.push(event);
      setByChat((all) => ({ ...all, [chatId]: applied(all[chatId] ?? [], event) }));
    };
    const source = new EventSource("./api/events");
    source.addEventListener("ready", () => {
      setConnected(true);
      // anything missed while the stream was down
      const chatId = latest.current.openChatId;
      if (chatId !== undefined) void load(chatId);
    });
    source.onerror = () => setConnected(false);
    source.addEventListener("feed", (e) => onFeed(JSON.parse((e as MessageEvent<string>).data) as FeedEvent));
    return () => source.close();
  }, []);

  return { byChat, connected };
}
