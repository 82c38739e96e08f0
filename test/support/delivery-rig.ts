import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { startTelegramStandIn } from "../../sandbox/playground/telegram";
import type { DeliveryDeps } from "../../src/domain/generations/deliver/send-outputs";
import type { Generation } from "../../src/domain/generations/types";
import { translate } from "../../src/platform/i18n/i18n";
import { languageFromCode } from "../../src/platform/i18n/language";
import { createMediaStore } from "../../src/platform/storage/media-store";
import { signedFileUrl } from "../../src/platform/storage/signed-tokens";
import { startFileServer } from "./file-server";
import { generationRow } from "./generation-row";

/**
 * What a test of delivery needs: the Telegram stand-in with a user who started
 * the bot, a file server for the service's outputs, a store directory, and
 * generations waiting to be delivered to that user.
 */
export async function startDeliveryRig(secret: string) {
  const tg = await startTelegramStandIn({ rules: { flood: false } });
  const root = await mkdtemp(join(tmpdir(), "msb-delivery-"));
  const files = await startFileServer();
  const user = tg.user();
  await user.send("/start");

  const { serve, unserve } = files;

  /** a charged generation of the user, in `delivering`, with these outputs */
  function generation(
    operation: Generation["operation"],
    outputs: string[],
    extra: Partial<Generation> = {},
  ) {
    const now = new Date();
    return generationRow({
      userId: user.id,
      chatId: user.chatId,
      operation,
      params:
        operation === "video"
          ? {
              operation,
              prompt: "waves",
              model: "video-a-v3-turbo",
              duration: 5,
              resolution: "720p",
              aspectRatio: "9:16",
            }
          : {
              operation: "image",
              prompt: "a lighthouse",
              model: "nano-core-2",
              imageSize: "1:1",
              numImages: outputs.length,
            },
      price: 8,
      state: "delivering",
      taskId: "t",
      serviceCredits: 8,
      outputs: outputs.map((url) => ({ url })),
      charged: 8,
      attempts: 1,
      deliveryAttempts: 1,
      submittedAt: now,
      finishedAt: now,
      ...extra,
    });
  }

  function deps(): DeliveryDeps {
    return {
      api: new Api(tg.token, { apiRoot: tg.apiRoot }),
      store: createMediaStore(root),
      t: (lang, key, vars) => translate(languageFromCode(lang), key, vars),
      outputUrl: outputLinks(secret),
      retentionDays: 7,
    };
  }

  async function close() {
    await tg.close();
    await files.close();
    await rm(root, { recursive: true, force: true });
  }

  return { tg, user, root, serve, unserve, generation, deps, close };
}

/** Signed links to stored results, as the bot makes them. */
export function outputLinks(secret: string) {
  return (path: string, days: number) =>
    signedFileUrl("https://bot.example.com", secret, {
      k: "out",
      p: path,
      e: Math.floor(Date.now() / 1000) + days * 24 * 3600,
    });
}

export type DeliveryRig = Awaited<ReturnType<typeof startDeliveryRig>>;
