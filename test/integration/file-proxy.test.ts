import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileProxyRoutes } from "../../src/http/file-proxy";
import { startTelegramStandIn, type TelegramStandIn } from "../../src/playground/telegram";
import { solidPng } from "../../src/playground/telegram/images";
import { createMediaStore } from "../../src/storage/media-store";
import { signFileToken } from "../../src/storage/signed-tokens";
import { captureLogs } from "../support/log-capture";

const secret = "file-proxy-secret-0123456789abcdefghij";
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** The file proxy's odd paths: HEAD requests, and Telegram's file server unreachable. */
describe("the file proxy", () => {
  let root: string;
  let tg: TelegramStandIn;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "msb-file-proxy-"));
    await mkdir(join(root, "g"), { recursive: true });
    await writeFile(join(root, "g", "0.png"), solidPng(8, 8));
    tg = await startTelegramStandIn({ rules: { flood: false } });
  });
  afterAll(async () => {
    await tg?.close();
    await rm(root, { recursive: true, force: true });
  });

  test("HEAD on a result link answers its headers and opens no file (an unread stream keeps its descriptor)", async () => {
    const { logger } = captureLogs();
    const store = createMediaStore(root);
    let opened = 0;
    const counting = {
      ...store,
      open: (path: string) => {
        opened++;
        return store.open(path);
      },
    };
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store: counting,
      telegram: null,
      logger,
    });
    const link = `/files/${signFileToken(secret, { k: "out", p: "g/0.png", e: inAnHour() })}`;
    for (let i = 0; i < 20; i++) {
      const res = await app.request(link, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    }
    expect(opened).toBe(0);
    const got = await app.request(link);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(solidPng(8, 8));
    expect(opened).toBe(1);
  });

  test("Telegram's file server unreachable: a 502 and a warning without the token, never a 500", async () => {
    const { logger, lines } = captureLogs();
    const user = tg.user();
    const fileId = await user.sendPhoto({ width: 16, height: 16 }).then((m) => m.photo!.at(-1)!.file_id);
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store: createMediaStore(root),
      telegram: { api: new Api(tg.token, { apiRoot: tg.apiRoot }), token: tg.token, apiRoot: tg.apiRoot },
      logger,
      fetch: async (input) => {
        throw new TypeError(`fetch failed: ${String(input)}`);
      },
    });
    const res = await app.request(`/files/${signFileToken(secret, { k: "tg", f: fileId, e: inAnHour() })}`);
    expect(res.status).toBe(502);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain("file proxy: Telegram file unreachable");
    expect(JSON.stringify(lines)).not.toContain(tg.token.split(":")[1]!);
  });
});
