import { useEffect, useRef, useState } from "preact/hooks";
import type { FeedEvent, MessageView } from "../feed-types";
import { api } from "./api";

/** The bot's answer to a button press, told on the same stream as the messages. */
export type PressAnswer = Extract<FeedEvent, { type: "answer" }>;

function upsert(list: MessageView[], view: MessageView): MessageView[] {
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

  const load = (chatId: number) =>
    api.messages(chatId).then((list) => setByChat((all) => ({ ...all, [chatId]: list })));

  useEffect(() => {
    if (openChatId !== undefined) void load(openChatId);
  }, [openChatId]);

  useEffect(() => {
    const onFeed = (event: FeedEvent) => {
      if (event.type === "answer") {
        latest.current.onAnswer(event);
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
