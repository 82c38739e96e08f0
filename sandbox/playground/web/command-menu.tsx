import type { BotCommand } from "grammy/types";

/** The bot's commands for this person in this chat, as the ☰ button lists them; a pick sends it. */
export function CommandMenu({ commands, onPick }: { commands: BotCommand[]; onPick(text: string): void }) {
  return (
    <div class="command-menu" data-testid="command-menu">
      {commands.length === 0 ? <div class="empty">No commands</div> : null}
      {commands.map((c) => (
        <button type="button" key={c.command} onClick={() => onPick(`/${c.command}`)}>
          <span class="command">/{c.command}</span> <small dir="auto">{c.description}</small>
        </button>
      ))}
    </div>
  );
}
