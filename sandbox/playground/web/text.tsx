import type { MessageEntity } from "grammy/types";
import { type ComponentChildren, createContext } from "preact";
import { useContext } from "preact/hooks";

/** What tapping a /command in a message does: sends it, as Telegram's clients do. */
export const CommandTap = createContext<((command: string) => void) | undefined>(undefined);

function CommandLink({ command, children }: { command: string; children: ComponentChildren }) {
  const tap = useContext(CommandTap);
  if (!tap) return <span class="command">{children}</span>;
  return (
    <a
      class="command"
      href={`#${command}`}
      data-testid="command-link"
      onClick={(e) => {
        e.preventDefault();
        tap(command);
      }}
    >
      {children}
    </a>
  );
}

/** A bot's start link (`https://t.me/<bot>?start=<payload>`): its payload, which Telegram's clients send as `/start <payload>`. */
function startPayloadOf(href: string): string | undefined {
  const m = /^https?:\/\/t\.me\/[A-Za-z0-9_]{3,32}\?start=([A-Za-z0-9_-]{1,64})$/.exec(href);
  return m?.[1];
}

/** A link; a bot's start link, tapped, sends `/start <payload>` in this chat, as Telegram's clients do. */
function Link({ href, children }: { href: string; children: ComponentChildren }) {
  const tap = useContext(CommandTap);
  const payload = startPayloadOf(href);
  if (!tap || payload === undefined)
    return (
      <a href={href} target="_blank" rel="noreferrer">
        {children}
      </a>
    );
  return (
    <a
      href={href}
      data-testid="start-link"
      onClick={(e) => {
        e.preventDefault();
        tap(`/start ${payload}`);
      }}
    >
      {children}
    </a>
  );
}

/** Text with Telegram's entities as markup; offsets are UTF-16 units, as in JS strings. */
export function FormattedText({ text, entities }: { text: string; entities?: MessageEntity[] | undefined }) {
  const sorted = [...(entities ?? [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  return <>{renderRange(text, sorted, 0, text.length)}</>;
}

function renderRange(
  text: string,
  entities: MessageEntity[],
  start: number,
  end: number,
): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let at = start;
  let i = 0;
  while (i < entities.length) {
    const entity = entities[i]!;
    const entityEnd = entity.offset + entity.length;
    if (entity.offset < at || entityEnd > end) {
      i++;
      continue;
    }
    if (entity.offset > at) out.push(text.slice(at, entity.offset));
    // entities inside this one
    const inner: MessageEntity[] = [];
    let j = i + 1;
    while (j < entities.length && entities[j]!.offset < entityEnd) {
      if (entities[j]!.offset + entities[j]!.length <= entityEnd) inner.push(entities[j]!);
      j++;
    }
    out.push(
      wrap(entity, text.slice(entity.offset, entityEnd), renderRange(text, inner, entity.offset, entityEnd)),
    );
    at = entityEnd;
    i = j;
  }
  if (at < end) out.push(text.slice(at, end));
  return out;
}

function wrap(entity: MessageEntity, raw: string, children: ComponentChildren[]): ComponentChildren {
  switch (entity.type) {
    case "bold":
      return <strong>{children}</strong>;
    case "italic":
      return <em>{children}</em>;
    case "underline":
      return <u>{children}</u>;
    case "strikethrough":
      return <s>{children}</s>;
    case "spoiler":
      return <span class="spoiler">{children}</span>;
    case "code":
      return <code>{children}</code>;
    case "pre":
      return (
        <pre>
          <code>{children}</code>
        </pre>
      );
    case "blockquote":
    case "expandable_blockquote":
      return <blockquote>{children}</blockquote>;
    case "text_link":
      return <Link href={entity.url ?? ""}>{children}</Link>;
    case "url":
      return <Link href={/^https?:/i.test(raw) ? raw : `https://${raw}`}>{children}</Link>;
    case "bot_command":
      return <CommandLink command={raw}>{children}</CommandLink>;
    default:
      return <>{children}</>;
  }
}
