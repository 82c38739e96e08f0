import { sign } from "@tma.js/init-data-node";
import type { TestUser } from "../../sandbox/playground/telegram";
import type { Harness } from "./harness";

/** initData for `user` as Telegram's client hands it to the Mini App, signed with `token` at `at`. */
export function initDataFor(
  user: Pick<TestUser, "id"> & { firstName?: string; language?: string },
  token: string,
  at: Date = new Date(),
): string {
  return sign(
    {
      query_id: "AAHtest",
      user: {
        id: user.id,
        first_name: user.firstName ?? "Tester",
        ...(user.language ? { language_code: user.language } : {}),
        allows_write_to_pm: true,
      },
    },
    token,
    at,
  );
}

export interface AppAnswer<T = unknown> {
  status: number;
  body: T;
}

/** A call of the Mini App's API with `Authorization: tma <initData>` (or the header given), its JSON answer. */
export async function appCall<T = Record<string, unknown>>(
  h: Harness,
  path: string,
  options: {
    initData?: string;
    authorization?: string;
    method?: string;
    json?: unknown;
    body?: string | FormData;
  } = {},
): Promise<AppAnswer<T>> {
  const headers: Record<string, string> = {};
  const authorization = options.authorization ?? (options.initData ? `tma ${options.initData}` : undefined);
  if (authorization) headers.authorization = authorization;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${h.config.publicUrl}/app/api${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: res.status, body: parsed as T };
}

/** A caller of the API as `user`: fresh initData signed with the harness's bot token on every call. */
export function appClient(h: Harness, user: Pick<TestUser, "id"> & { language?: string }) {
  const initData = () => initDataFor(user, h.tg.token);
  return {
    get: <T = Record<string, unknown>>(path: string) => appCall<T>(h, path, { initData: initData() }),
    post: <T = Record<string, unknown>>(path: string, json: unknown = {}) =>
      appCall<T>(h, path, { initData: initData(), json }),
    upload: <T = Record<string, unknown>>(path: string, form: FormData) =>
      appCall<T>(h, path, { initData: initData(), body: form }),
    /** A new draft issued to `user` (POST /drafts), for POST /generate. */
    async draft(): Promise<string> {
      const answer = await appCall<{ draft: string }>(h, "/drafts", { initData: initData(), json: {} });
      if (answer.status !== 200) throw new Error(`POST /drafts answered ${answer.status}`);
      return answer.body.draft;
    },
  };
}
