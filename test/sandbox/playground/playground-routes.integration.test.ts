import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Cast, createCast } from "../../../sandbox/playground/cast";
import { createChatFeed } from "../../../sandbox/playground/chat-feed";
import { playgroundRoutes } from "../../../sandbox/playground/routes";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";

/** The playground page's HTTP API answers odd requests with a 4xx and changes nothing. */
describe("the playground API", () => {
  let tg: TelegramStandIn;
  let cast: Cast;
  let app: Hono;
  let dist: string;
  const json = (body: unknown) => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    cast = createCast(tg);
    const feed = createChatFeed(tg, () => [...cast.members.map((m) => m.user.chatId), cast.group.id]);
    dist = await mkdtemp(join(tmpdir(), "msb-playground-dist-"));
    await mkdir(join(dist, "assets"));
    await writeFile(join(dist, "index.html"), "<!doctype html><script></script>");
    app = playgroundRoutes({ tg, cast, feed, distDir: dist, maxUploadBytes: 1024 });
  });
  afterAll(async () => {
    await tg?.close();
    await rm(dist, { recursive: true, force: true });
  });

  test("a user cannot write in another user's private chat; their own chat and the group work", async () => {
    const [alex, morgan] = cast.members;
    const before = tg.chat(morgan!.user.chatId)?.messages.length ?? 0;
    const refused = await app.request(
      "/api/send",
      json({ user: alex!.user.id, chatId: morgan!.user.chatId, text: "hi" }),
    );
    expect(refused.status).toBe(400);
    expect(tg.chat(morgan!.user.chatId)?.messages.length ?? 0).toBe(before);
    const own = await app.request(
      "/api/send",
      json({ user: alex!.user.id, chatId: alex!.user.chatId, text: "hi" }),
    );
    expect(own.status).toBe(200);
  });

  test("malformed bodies, unknown users and chats are a 400", async () => {
    expect((await app.request("/api/send", { method: "POST", body: "{not json" })).status).toBe(400);
    expect((await app.request("/api/send", json({ user: 1, chatId: 1, text: "x" }))).status).toBe(400);
    expect((await app.request("/api/press", json({ user: cast.members[0]!.user.id }))).status).toBe(400);
  });

  test("a text over Telegram's limit is refused in words, not zod's JSON; the state names each person's @username", async () => {
    const alex = cast.members[0]!;
    const refused = await app.request(
      "/api/send",
      json({ user: alex.user.id, chatId: alex.user.chatId, text: "x".repeat(4097) }),
    );
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toMatch(/4096/);
    expect(() => JSON.parse(error)).toThrow();
    const state = (await (await app.request("/api/state")).json()) as {
      users: Array<{ id: number; username?: string }>;
    };
    expect(state.users.map((u) => u.username)).toEqual(["alex_example", "morgan_admin", "sara_fa"]);
    expect(state.users.map((u) => u.id)).toEqual(cast.members.map((m) => m.user.id));
  });

  test("paying: only an invoice, only in its own chat; inline: only one's own query's results", async () => {
    const [alex, morgan] = cast.members;
    const note = await alex!.user.send("not an invoice");
    const pay = (body: unknown) => app.request("/api/pay", json(body));
    // a user's own message is no invoice; another user's chat is not theirs to pay in
    expect(
      (await pay({ user: alex!.user.id, chatId: alex!.user.chatId, messageId: note.message_id })).status,
    ).toBe(400);
    expect(
      (await pay({ user: morgan!.user.id, chatId: alex!.user.chatId, messageId: note.message_id })).status,
    ).toBe(400);
    expect((await pay({ user: alex!.user.id, chatId: cast.group.id, messageId: 1 })).status).toBe(400);
    // a query Alex typed, answered as the bot would: its results are Alex's to pick, not Morgan's
    const queryId = alex!.user.inlineQuery("a cat");
    const article = {
      type: "article",
      id: "a1",
      title: "A cat",
      input_message_content: { message_text: "a cat" },
    };
    await tg.call("answerInlineQuery", { inline_query_id: queryId, results: JSON.stringify([article]) });
    const pick = (user: number) =>
      app.request("/api/inline/choose", json({ user, chatId: cast.group.id, queryId, resultId: "a1" }));
    const groupSize = tg.chat(cast.group.id)?.messages.length ?? 0;
    expect((await pick(morgan!.user.id)).status).toBe(400);
    expect(tg.chat(cast.group.id)?.messages.length).toBe(groupSize);
    expect((await pick(alex!.user.id)).status).toBe(200);
    expect(tg.chat(cast.group.id)?.messages.at(-1)?.message.via_bot?.id).toBe(tg.botUser.id);
    const elsewhere = await app.request(
      "/api/inline",
      json({ user: alex!.user.id, chatId: morgan!.user.chatId, query: "a cat" }),
    );
    expect(elsewhere.status).toBe(400);
    expect(tg.chat(alex!.user.chatId)?.messages.filter((m) => m.message.successful_payment)).toEqual([]);
  });

  test("random bodies on every route get a 4xx, never a 5xx", async () => {
    const routes = ["/api/send", "/api/press", "/api/pay", "/api/inline/choose"];
    const ids = [...cast.members.map((m) => m.user.id), cast.group.id, 0, -1, 1];
    const body = fc.oneof(
      fc.anything(),
      fc.record(
        {
          user: fc.oneof(fc.constantFrom(...ids), fc.anything()),
          chatId: fc.oneof(fc.constantFrom(...ids), fc.anything()),
          messageId: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.anything()),
          row: fc.integer({ min: -1, max: 5 }),
          column: fc.integer({ min: -1, max: 5 }),
          text: fc.string({ maxLength: 20 }),
          queryId: fc.string({ maxLength: 70 }),
          resultId: fc.string({ maxLength: 70 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async (route, input) => {
        const res = await app.request(route, json(input));
        expect(res.status).toBeLessThan(500);
        if (route !== "/api/send") expect(res.status === 200 && route === "/api/pay").toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  test("an upload over the limit is refused with 413 before it is read", async () => {
    const form = new FormData();
    form.set("user", String(cast.members[0]!.user.id));
    form.set("chatId", String(cast.members[0]!.user.chatId));
    form.set("as", "document");
    form.set("files", new Blob([new Uint8Array(4096)]), "big.bin");
    const res = await app.request("/api/upload", { method: "POST", body: form });
    expect(res.status).toBe(413);
  });

  test("the page and its files are served; a folder or a path outside is a 404", async () => {
    expect((await app.request("/")).status).toBe(200);
    expect((await app.request("/assets")).status).toBe(404);
    expect((await app.request("/../package.json")).status).toBe(404);
    expect((await app.request("/nothing.js")).status).toBe(404);
  });
});
