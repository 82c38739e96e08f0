import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startTelegramStandIn, type TelegramStandIn, type TestUser } from "../../sandbox/playground/telegram";
import { solidPng } from "../../sandbox/playground/telegram/images";
import type { Ledger } from "../../src/domain/credits/ledger";
import type { DeliverDeps } from "../../src/domain/generations/deliver/deliver-step";
import type { Generations } from "../../src/domain/generations/service";
import { createUsers, type Users } from "../../src/domain/users/users";
import { translate } from "../../src/platform/i18n/i18n";
import { languageFromCode } from "../../src/platform/i18n/language";
import { createMediaStore } from "../../src/platform/storage/media-store";
import { defaultPolicy } from "../../src/runtime/settings";
import { createTestDatabase, type TestDatabase } from "./db";
import { outputLinks } from "./delivery-rig";
import { type FileServer, startFileServer } from "./file-server";
import { linkedApi } from "./linked-api";
import { testGenerations } from "./test-generations";

interface Parts {
  database: TestDatabase;
  ledger: Ledger;
  generations: Generations;
  users: Users;
  tg: TelegramStandIn;
  files: FileServer;
  root: string;
}

/**
 * What a test of the deliver step runs against, for its describe block: Postgres with the
 * generations and the ledger, the Telegram stand-in, a file server for the service's outputs
 * (a small PNG for any path) and a store directory; the step's deps as the worker wires them.
 */
export function deliverStepRig(name: string) {
  let parts: Parts | undefined;
  let keys = 0;
  /** a key no other generation of the rig has */
  const nextKey = () => `deliver-${keys++}`;
  const png = solidPng(32, 32);
  const started = (): Parts => {
    if (!parts) throw new Error("the deliver step rig has not started");
    return parts;
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    const { ledger, generations } = testGenerations(database.db);
    parts = {
      database,
      ledger,
      generations,
      users: createUsers(database.db, ledger, { welcomeCredits: 0 }),
      tg: await startTelegramStandIn({ rules: { flood: false } }),
      root: await mkdtemp(join(tmpdir(), `msb-${name}-`)),
      files: await startFileServer({ fallback: { body: png, type: "image/png" } }),
    };
  });
  afterAll(async () => {
    await parts?.tg.close();
    await parts?.files.close();
    if (parts) await rm(parts.root, { recursive: true, force: true });
    await parts?.database.drop();
  });
  beforeEach(() => {
    started().files.setOutage(undefined);
  });

  function deps(): DeliverDeps {
    const { tg, root, generations, users } = started();
    return {
      ...linkedApi(tg),
      store: createMediaStore(root),
      t: (lang, key, vars) => translate(languageFromCode(lang), key, vars),
      outputUrl: outputLinks("deliver-step-secret-0123456789abcdef"),
      generations,
      logger: pino({ level: "silent" }),
      // as the worker wires it: the users store, on Postgres
      markBlocked: async (userId) => {
        await users.markBlocked(userId);
      },
      maxDeliveryAttempts: defaultPolicy.maxDeliveryAttempts,
      retentionDays: 7,
    };
  }

  /** A completed image generation of `user`, charged, waiting to be delivered. */
  async function completed(user: TestUser, threadId?: number, statusMessageId?: number) {
    const { ledger, generations, files } = started();
    const key = nextKey();
    await ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: {
        chatId: user.chatId,
        ...(threadId ? { threadId } : {}),
        ...(statusMessageId ? { statusMessageId } : {}),
      },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const id = r.generation.id;
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${key}` });
    const done = await generations.complete(id, {
      images: [`${files.base}/${key}.png`],
      videos: [],
      audios: [],
    });
    if (!done) throw new Error("not completed");
    return { id, price: r.generation.price };
  }

  /** A user who started the bot: known to Telegram's stand-in, and a `users` row as the bot's update handling writes it. */
  async function startedUser() {
    const { tg, users } = started();
    const user = tg.user();
    await user.send("/start");
    await users.touch(user.info, user.chat);
    return user;
  }

  return {
    get database() {
      return started().database;
    },
    get ledger() {
      return started().ledger;
    },
    get generations() {
      return started().generations;
    },
    get users() {
      return started().users;
    },
    get tg() {
      return started().tg;
    },
    get files() {
      return started().files;
    },
    get root() {
      return started().root;
    },
    nextKey,
    png,
    deps,
    completed,
    startedUser,
    photosTo: (user: TestUser) =>
      started()
        .tg.callsOf("sendPhoto")
        .filter((c) => Number(c.params.chat_id) === user.chatId).length,
  };
}
