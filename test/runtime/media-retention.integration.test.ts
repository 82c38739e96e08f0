import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Ledger } from "../../src/domain/credits/ledger";
import type { Generations } from "../../src/domain/generations/service";
import { removeExpiredMedia } from "../../src/platform/storage/media-retention";
import { createMediaStore } from "../../src/platform/storage/media-store";
import { signFileToken } from "../../src/platform/storage/signed-tokens";
import type { MediaStore } from "../../src/platform/storage/stored-file";
import { fileProxyRoutes } from "../../src/runtime/http/file-proxy";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { testGenerations } from "../support/test-generations";

const day = 24 * 3_600_000;
const secret = "retention-secret-0123456789abcdefghij";

/** Stored results are deleted past MEDIA_RETENTION_DAYS, on real Postgres; their links answer 410. */
describe("media retention", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  let root: string;
  let store: MediaStore;
  let nextKey = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db));
    root = await mkdtemp(join(tmpdir(), "msb-retention-"));
    store = createMediaStore(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await database?.drop();
  });

  async function queued(userId: number) {
    const key = `retention-${nextKey++}`;
    await ledger.grant({ userId, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId,
      language: "en",
      chat: { chatId: userId },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    return r.generation.id;
  }
  async function completed(userId: number) {
    const id = await queued(userId);
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${id}` });
    await generations.complete(id, { images: ["https://service.example/x.png"], videos: [], audios: [] });
    return id;
  }
  async function storedFile(folder: string) {
    await mkdir(join(root, folder), { recursive: true });
    await writeFile(join(root, folder, "0.png"), "png bytes");
  }
  const remaining = async () => (await readdir(root)).sort();

  test("results at rest past the retention go; one still on its way, young ones and foreign folders stay", async () => {
    const delivered = await completed(7101);
    await generations.startDelivery(delivered);
    await generations.finishDelivery(delivered, [1], ["file-1"]);
    const cancelled = await queued(7101);
    await generations.cancel(cancelled, 7101);
    const stillDelivering = await completed(7101);
    await generations.startDelivery(stillDelivering);
    const unknown = randomUUID();
    for (const folder of [delivered, cancelled, stillDelivering, unknown, "not-a-generation"])
      await storedFile(folder);

    const sweep = (now: number) =>
      removeExpiredMedia({ store, restingSince: generations.restingSince, now: () => now, retentionDays: 7 });
    expect(await sweep(Date.now() + 6 * day)).toBe(0);
    expect(await remaining()).toHaveLength(5);

    expect(await sweep(Date.now() + 8 * day)).toBe(2);
    expect(await remaining()).toEqual([stillDelivering, unknown, "not-a-generation"].sort());
  });

  test("kept inputs (inputs/<generation id>) go with their generation; their links then answer 410", async () => {
    const inputsRoot = await mkdtemp(join(tmpdir(), "msb-retention-inputs-"));
    try {
      const own = createMediaStore(inputsRoot);
      const resting = await queued(7102);
      await generations.cancel(resting, 7102);
      const running = await queued(7102);
      for (const id of [resting, running])
        await own.keepInput(id, async (tmp) => {
          await writeFile(tmp, "wav bytes");
          return { contentType: "audio/wav", url: "https://example.com/a.wav" };
        });
      const app = fileProxyRoutes({
        signingSecret: secret,
        now: Date.now,
        store: own,
        telegram: null,
        logger: pino({ level: "silent" }),
      });
      const link = (g: string) =>
        `/files/${signFileToken(secret, { k: "in", g, e: Math.floor(Date.now() / 1000) + 3600 })}`;
      const served = await app.request(link(resting));
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toMatch(/^audio\/(x-)?wav$/);
      expect(await served.text()).toBe("wav bytes");

      const sweep = (now: number) =>
        removeExpiredMedia({
          store: own,
          restingSince: generations.restingSince,
          now: () => now,
          retentionDays: 7,
        });
      expect(await sweep(Date.now() + 6 * day)).toBe(0);
      expect(await sweep(Date.now() + 8 * day)).toBe(1);
      expect((await readdir(join(inputsRoot, "inputs"))).sort()).toEqual([running]);
      expect((await app.request(link(resting))).status).toBe(410);
      expect((await app.request(link(running))).status).toBe(200);
    } finally {
      await rm(inputsRoot, { recursive: true, force: true });
    }
  });

  test("a link to a removed result answers 410; a path outside the store stays a 404", async () => {
    const id = randomUUID();
    await storedFile(id);
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store,
      telegram: null,
      logger: pino({ level: "silent" }),
    });
    const link = `/files/${signFileToken(secret, { k: "out", p: `${id}/0.png`, e: Math.floor(Date.now() / 1000) + 3600 })}`;
    expect((await app.request(link)).status).toBe(200);
    await store.removeFolder(id);
    const gone = await app.request(link);
    expect(gone.status).toBe(410);
    const outside = `/files/${signFileToken(secret, { k: "out", p: "../outside.txt", e: Math.floor(Date.now() / 1000) + 3600 })}`;
    expect((await app.request(outside)).status).toBe(404);
  });
});
