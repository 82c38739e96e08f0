import { useEffect, useState } from "preact/hooks";
import { api, type InlineAnswer } from "./api";

/** The query of `@bot …` typed in the composer; undefined when the text is not an inline query. */
function inlineQueryOf(text: string, username: string): string | undefined {
  const prefix = `@${username}`;
  if (text.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return undefined;
  const rest = text.slice(prefix.length);
  return /^\s/.test(rest) ? rest.trim() : undefined;
}

/**
 * Inline mode: while the composer holds `@bot …`, the query and, once the bot
 * has answered it, the answer; undefined when the text is not an inline query.
 */
export function useInlineQuery(
  text: string,
  asker: { username: string | undefined; chatId: number | undefined; userId: number | undefined },
  onError: (message: string) => void,
) {
  const [inline, setInline] = useState<{ query: string; answer?: InlineAnswer }>();
  const { username, chatId, userId } = asker;
  const query = username ? inlineQueryOf(text, username) : undefined;

  useEffect(() => {
    if (query === undefined || chatId === undefined || userId === undefined) {
      setInline(undefined);
      return;
    }
    // a new query, person or chat: an answer to another is never shown (its results are not theirs to pick)
    setInline({ query });
    let current = true;
    // Telegram's client asks as the user types, after a short pause
    const timer = setTimeout(() => {
      void api
        .inline({ user: userId, chatId, query })
        .then((answer) => {
          if (current) setInline({ query, answer });
        })
        .catch((err: unknown) => {
          if (current) onError(err instanceof Error ? err.message : String(err));
        });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, chatId, userId]);

  return inline;
}
