import type { PlaygroundState } from "./api";

/** The open chat's name and what it is, and whom the reader acts as. */
export function ChatHeader({
  state,
  inGroup,
  connected,
  userId,
  onSwitchUser,
}: {
  state: PlaygroundState;
  inGroup: boolean;
  connected: boolean;
  userId: number;
  onSwitchUser(id: number): void;
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
        {me ? (
          <small class="whoami" data-testid="whoami" title="What an admin names this person by">
            {me.username ? `@${me.username} · ` : ""}id {me.id}
          </small>
        ) : null}
      </div>
    </header>
  );
}
