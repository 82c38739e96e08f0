import type { PlaygroundState } from "./api";
import type { Place } from "./use-playground";

/** The places to chat in: the private chat with the bot, the group's General, and each of its topics. */
export function PlaceTabs({
  state,
  userId,
  place,
  onGo,
}: {
  state: PlaygroundState;
  userId: number;
  place: Place;
  onGo(place: Place): void;
}) {
  const inGroup = place.chatId === state.group.id;
  return (
    <nav class="places">
      <button type="button" class={!inGroup ? "on" : ""} onClick={() => onGo({ chatId: userId })}>
        🤖 Bot
      </button>
      <button
        type="button"
        class={inGroup && place.threadId === undefined ? "on" : ""}
        onClick={() => onGo({ chatId: state.group.id })}
      >
        👥 General
      </button>
      {state.topics.map((t) => (
        <button
          type="button"
          key={t.id}
          class={inGroup && place.threadId === t.id ? "on" : ""}
          onClick={() => onGo({ chatId: state.group.id, threadId: t.id })}
        >
          # {t.name}
        </button>
      ))}
    </nav>
  );
}
