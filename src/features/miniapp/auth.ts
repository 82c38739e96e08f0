import { authScheme } from "./contract";

/**
 * How long an initData is accepted after Telegram signed it: a day, the
 * library's default. Telegram signs it when the app opens and the app keeps it
 * while it stays open, so a shorter limit would log out a user who left the
 * app open; a longer one lets a copied initData act for longer.
 */
export const initDataMaxAgeSeconds = 24 * 3600;

/** Who initData says is calling. */
export interface AppCaller {
  id: number;
  firstName: string;
  username?: string | undefined;
  languageCode?: string | undefined;
}

/** The initData of an `Authorization: tma <initData>` header, as sent. */
function initDataOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value, extra] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== authScheme || !value || extra !== undefined) return undefined;
  return value;
}

/**
 * @tma.js/init-data-node, with valibot beneath it, is loaded at the first Mini App
 * call: about 3 MB of heap that a web process serving only the chat never holds.
 */
let initDataLibrary: Promise<typeof import("@tma.js/init-data-node")> | undefined;

/**
 * The caller of a request, when its initData is signed with the bot token
 * (checked by @tma.js/init-data-node, not by hand), fresh, and names a user
 * who is not a bot; undefined for anything else.
 */
export async function callerOf(header: string | undefined, botToken: string): Promise<AppCaller | undefined> {
  const initData = initDataOf(header);
  if (!initData || initData.length > 8192) return undefined;
  initDataLibrary ??= import("@tma.js/init-data-node");
  const { parse, validate } = await initDataLibrary;
  try {
    validate(initData, botToken, { expiresIn: initDataMaxAgeSeconds });
    const user = parse(initData).user;
    if (!user || user.is_bot || !Number.isSafeInteger(user.id) || user.id <= 0) return undefined;
    return {
      id: user.id,
      firstName: user.first_name,
      username: user.username,
      languageCode: user.language_code,
    };
  } catch {
    return undefined;
  }
}
