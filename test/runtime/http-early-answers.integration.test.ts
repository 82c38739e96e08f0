import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createCast } from "../../sandbox/playground/cast";
import { createChatFeed } from "../../sandbox/playground/chat-feed";
import { playgroundRoutes } from "../../sandbox/playground/routes";
import { startTelegramStandIn, type TelegramStandIn } from "../../sandbox/playground/telegram";
import { createLogger } from "../../src/platform/lib/logger";
import { listen } from "../../src/runtime/health-server";
import { rootApp } from "../../src/runtime/http/root";
import { type Harness, startHarness } from "../support/harness";
import { big, errorsOf, fire, mix, type Shot, small } from "../support/keep-alive-shots";

/**
 * A route that answers before it read the request body (a 413 from a body
 * limit, a 401/403/404 before the body matters) must leave the keep-alive
 * connection usable or say `Connection: close`: otherwise a client pooling its
 * sockets sends its next request on a socket being torn down, and that
 * request, an innocent one, fails with ECONNRESET.
 */

describe("early answers on a keep-alive connection", () => {
  let h: Harness;
  const telegramSecret = "tg-webhook-secret-0123456789";

  beforeAll(async () => {
    h = await startHarness({ env: { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: telegramSecret } });
  });
  afterAll(async () => h?.stop());

  test("the web role: media webhook, Telegram webhook, file proxy and unknown routes, 0 resets", async () => {
    const media = `/webhooks/media/${h.config.media.webhookSecret}`;
    const json = { "content-type": "application/json" };
    const tgHeaders = { ...json, "x-telegram-bot-api-secret-token": telegramSecret };
    const large: Shot[] = [
      // over the media webhook's 1 MiB: 413 from the declared length, or mid-body when chunked
      { method: "POST", path: media, headers: json, body: big },
      { method: "POST", path: media, headers: json, body: big, chunked: true },
      // the wrong path secret: 404 before the limit
      { method: "POST", path: "/webhooks/media/not-the-secret", headers: json, body: big },
      // Telegram's webhook: over 1 MiB (413), and without the secret header (401)
      { method: "POST", path: "/telegram", headers: tgHeaders, body: big },
      { method: "POST", path: "/telegram", headers: tgHeaders, body: big, chunked: true },
      { method: "POST", path: "/telegram", headers: json, body: big },
      // the file proxy refuses a bad token whatever the GET carries
      { method: "GET", path: "/files/not-a-token", body: big },
      // no such route, no such method
      { method: "PUT", path: "/healthz", body: big },
      { method: "POST", path: "/nowhere", body: big },
    ];
    const others: Shot[] = [
      { method: "POST", path: media, headers: json, body: small("{not json") },
      { method: "POST", path: media, headers: json, body: small('{"event":"task.completed","data":{}}') },
      { method: "GET", path: media },
      { method: "POST", path: "/telegram", headers: tgHeaders, body: small("{}") },
      { method: "POST", path: "/telegram", headers: json, body: small('{"update_id":1}') },
      { method: "GET", path: "/telegram" },
      { method: "GET", path: "/files/not-a-token" },
      { method: "HEAD", path: "/files/not-a-token" },
      { method: "GET", path: "/healthz" },
      { method: "DELETE", path: "/nowhere", body: small("x") },
    ];
    const outcome = await fire(h.config.publicUrl, mix(400, large, others));
    expect(errorsOf(outcome)).toEqual({ errors: 0, first: [] });
    expect(Object.values(outcome.statuses).reduce((a, b) => a + b, 0)).toBe(400);
    expect(outcome.statuses[413]).toBeGreaterThan(0);
    expect(outcome.statuses[500]).toBeUndefined();
  });

  test("an unread body (declared or chunked) is dropped and the connection reused; one declared past 16 MB is closed", async () => {
    const media = `/webhooks/media/${h.config.media.webhookSecret}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (shot: Shot) =>
      new Promise<{ status: number; reused: boolean; connection: string | undefined }>((resolve, reject) => {
        const headers: Record<string, string> = shot.chunked
          ? {}
          : { "content-length": String(shot.body?.length ?? 0) };
        const req = request(
          `${h.config.publicUrl}${shot.path}`,
          { method: shot.method, headers, agent },
          (res) => {
            res.resume();
            res.once("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                reused: req.reusedSocket,
                connection: res.headers.connection,
              }),
            );
          },
        );
        req.on("error", reject);
        // written before the end: node sends it chunked (a body given to end() gets a content-length)
        if (shot.chunked) req.write(shot.body);
        req.end(shot.chunked ? undefined : shot.body);
      });
    try {
      await send({ method: "GET", path: "/healthz" });
      expect(await send({ method: "POST", path: media, body: big })).toEqual({
        status: 413,
        reused: true,
        connection: "keep-alive",
      });
      expect((await send({ method: "GET", path: "/healthz" })).reused).toBe(true);
      const chunked = await send({ method: "POST", path: media, body: big, chunked: true });
      expect(chunked).toMatchObject({ status: 413, connection: "keep-alive" });
      expect((await send({ method: "GET", path: "/healthz" })).reused).toBe(true);
      const huge = Buffer.alloc(17 * 1024 * 1024, 0x61);
      expect(await send({ method: "POST", path: media, body: huge })).toMatchObject({
        status: 413,
        connection: "close",
      });
      expect((await send({ method: "GET", path: "/healthz" })).reused).toBe(false);
    } finally {
      agent.destroy();
    }
  });

  test("a chunked body that goes on past 16 MB: its 413 is read, then the connection is cut, not read on", async () => {
    const { hostname, port } = new URL(h.config.publicUrl);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
    });
    const closed = new Promise<void>((resolve) => {
      socket.once("close", () => resolve());
      socket.on("error", () => undefined);
    });
    let cut = false;
    void closed.then(() => {
      cut = true;
    });
    socket.write(
      `POST /webhooks/media/${h.config.media.webhookSecret} HTTP/1.1\r\nHost: ${hostname}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const mb = Buffer.alloc(1024 * 1024, 0x61);
    const chunk = Buffer.concat([Buffer.from(`${mb.length.toString(16)}\r\n`), mb, Buffer.from("\r\n")]);
    let sentMb = 0;
    while (!cut && sentMb < 64) {
      if (!socket.write(chunk))
        await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
      sentMb += 1;
    }
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    socket.destroy();
    expect(answer.startsWith("HTTP/1.1 413")).toBe(true);
    expect(cut).toBe(true);
    expect(sentMb).toBeLessThan(64);
  });

  describe("the playground's upload", () => {
    let tg: TelegramStandIn;
    let dist: string;
    let server: ServerType;
    let base: string;

    beforeAll(async () => {
      tg = await startTelegramStandIn({ rules: { flood: false } });
      const cast = createCast(tg);
      const feed = createChatFeed(tg, () => [...cast.members.map((m) => m.user.chatId), cast.group.id]);
      dist = await mkdtemp(join(tmpdir(), "msb-early-answers-"));
      await mkdir(join(dist, "assets"));
      await writeFile(join(dist, "index.html"), "<!doctype html>");
      // mounted as the web role mounts it (extraRoutes), on a server started by the same listen()
      const app = rootApp(createLogger("silent"));
      app.route(
        "/playground",
        playgroundRoutes({ tg, cast, feed, distDir: dist, maxUploadBytes: 64 * 1024 }),
      );
      server = await listen(app, { port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      await tg?.close();
      await rm(dist, { recursive: true, force: true });
    });

    test("uploads over the limit among ordinary calls: 0 resets", async () => {
      const form = { "content-type": "multipart/form-data; boundary=x" };
      const large: Shot[] = [
        { method: "POST", path: "/playground/api/upload", headers: form, body: big },
        { method: "POST", path: "/playground/api/upload", headers: form, body: big, chunked: true },
      ];
      const others: Shot[] = [
        { method: "POST", path: "/playground/api/upload", headers: form, body: small("--x--\r\n") },
        { method: "POST", path: "/playground/api/send", body: small("{not json") },
        { method: "GET", path: "/playground/api/commands" },
        { method: "PUT", path: "/playground/api/upload", body: small("x") },
      ];
      const outcome = await fire(base, mix(200, large, others));
      expect(errorsOf(outcome)).toEqual({ errors: 0, first: [] });
      expect(outcome.statuses[413]).toBeGreaterThan(0);
    });
  });
});
