import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Cast, createCast } from "../../src/playground/cast";
import { createChatFeed } from "../../src/playground/chat-feed";
import { playgroundRoutes } from "../../src/playground/routes";
import { startTelegramStandIn, type TelegramStandIn } from "../../src/playground/telegram";

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
