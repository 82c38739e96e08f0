import { useState } from "preact/hooks";
import type { PlaygroundState } from "./api";

/** The open chat's name and what it is, and whom the reader acts as. */
export function ChatHeader({
  state,
  inGroup,
  connected,
  userId,
  onSwitchUser,
  onRenew,
}: {
  state: PlaygroundState;
  inGroup: boolean;
  connected: boolean;
  userId: number;
  onSwitchUser(id: number): void;
  /** the private chat: a month passes for the reader's Stars subscriptions (the renewal delivered twice when asked) */
  onRenew: ((twice: boolean) => void) | undefined;
}) {
  const me = state.users.find((u) => u.id === userId);
  return (
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
      <div class="who">
        <label>
          as{" "}
          <select
            data-testid="user-switcher"
            value={String(userId)}
            onChange={(e) => onSwitchUser(Number((e.target as HTMLSelectElement).value))}
          >
            {state.users.map((u) => (
              <option value={String(u.id)} key={u.id}>
                {u.name} ({u.role})
              </option>
            ))}
          </select>
        </label>
        {onRenew ? <RenewControl onRenew={onRenew} /> : null}
        {me ? (
          <small class="whoami" data-testid="whoami" title="What an admin names this person by">
            {me.username ? `@${me.username} · ` : ""}id {me.id}
          </small>
        ) : null}
      </div>
    </header>
  );
}

/** "A month passes": Telegram renews the reader's subscriptions; "twice" delivers each renewal's update twice, as Telegram may. */
function RenewControl({ onRenew }: { onRenew(twice: boolean): void }) {
  const [twice, setTwice] = useState(false);
  return (
    <span class="renew" title="Telegram renews this user's Stars subscriptions, as a month passing would">
      <button type="button" data-testid="renew-subscriptions" onClick={() => onRenew(twice)}>
        ⏭ A month passes
      </button>
      <label>
        <input
          type="checkbox"
          data-testid="renew-twice"
          checked={twice}
          onChange={(e) => setTwice((e.target as HTMLInputElement).checked)}
        />{" "}
        delivered twice
      </label>
    </span>
  );
}
