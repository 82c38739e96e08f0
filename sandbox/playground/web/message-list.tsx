import type { Message } from "grammy/types";
import { type MutableRef, useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { MessageView } from "../feed-types";
import { Bubble, formatPrice, type MessageActions } from "./message";
import type { Place } from "./use-playground";

/** Messages Telegram draws as a line in the middle of the chat, not as a bubble. */
function serviceText(message: Message, botName: string): string | undefined {
  if (message.forum_topic_created) return `Topic “${message.forum_topic_created.name}” created`;
  const paid = message.successful_payment;
  if (paid) return `You paid ${formatPrice(paid.currency, paid.total_amount)} to ${botName} (test payment)`;
  const refunded = message.refunded_payment;
  if (refunded) return `${formatPrice(refunded.currency, refunded.total_amount)} refunded by ${botName}`;
  return undefined;
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

/**
 * Keeps the chat at its end while `stick` holds: whatever grows it (a
 * message, an edit, a picture loading, a panel opening) scrolls it down.
 */
function useStickToEnd(stick: MutableRef<boolean>, place: Place) {
  const listRef = useRef<HTMLElement>(null);
  const feedRef = useRef<HTMLDivElement>(null);

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
  }, []);

  // before the new chat is drawn (and measured): a chat opens at its end
  useLayoutEffect(() => {
    stick.current = true;
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [place.chatId, place.threadId]);

  return { listRef, feedRef };
}

/** The open chat's messages: bubbles, and service lines (a topic created, a payment) between them. */
export function MessageList({
  views,
  botName,
  viewerId,
  inGroup,
  place,
  stick,
  actions,
}: {
  views: MessageView[];
  botName: string;
  /** the person the page acts as: their messages are the outgoing ones */
  viewerId: number;
  inGroup: boolean;
  place: Place;
  /** the chat follows new messages while this holds; scrolling up lets go */
  stick: MutableRef<boolean>;
  actions: MessageActions;
}) {
  const { listRef, feedRef } = useStickToEnd(stick, place);
  const outgoing = (view: MessageView) => !view.fromBot && view.message.from?.id === viewerId;
  // as in Telegram: a group names the sender of every message but the reader's own
  const nameOf = (view: MessageView) =>
    inGroup && !outgoing(view) ? (view.fromBot ? botName : (view.message.from?.first_name ?? "")) : undefined;
  return (
    <main ref={listRef} class="messages" data-testid="messages">
      <div class="feed" ref={feedRef}>
        {views.length === 0 ? <div class="empty">Say hello: send /start</div> : null}
        {bubbles(views).map((group) => {
          const service = serviceText(group[0]!.message, botName);
          return service ? (
            <div class="service" key={group[0]!.id} data-testid="service" dir="auto">
              {service}
            </div>
          ) : (
            <Bubble
              views={group}
              senderName={nameOf(group[0]!)}
              outgoing={outgoing(group[0]!)}
              actions={actions}
              key={group[0]!.id}
            />
          );
        })}
      </div>
    </main>
  );
}
