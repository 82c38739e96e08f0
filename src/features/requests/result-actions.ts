import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import type { PhotoInput } from "../../domain/generations/inputs";
import { upscalePrompt } from "../../domain/generations/params";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Generation } from "../../domain/generations/types";
import { upscaleModel, upscaleResolution } from "../../domain/generations/upscale";
import type { Prices } from "../../domain/pricing/prices";
import { limits, type Operation } from "../../platform/media-service/catalog";
import { editResultData, regenerateData, upscaleResultData } from "../../platform/telegram/callback-data";
import type { DubSeed } from "./dub";
import type { EditSeed } from "./edit";
import type { ImageSeed } from "./image";
import type { VideoSeed } from "./video";

export interface ResultActionsDeps {
  generations: Pick<GenerationReads, "get" | "paramsOf">;
  prices: Prices;
}

type Seed = ImageSeed | EditSeed | VideoSeed | DubSeed;
/** Leaves any open conversation and starts `operation` from `seed`. */
export type StartConversation = (ctx: BotContext, operation: Operation, seed: Seed) => Promise<void>;

type Action = { kind: "again" | "edit"; id: string } | { kind: "upscale"; id: string; picture: number };

function actionOf(data: string | undefined): Action | undefined {
  const again = regenerateData.parse(data);
  if (again !== undefined) return { kind: "again", id: again };
  const edit = editResultData.parse(data);
  if (edit !== undefined) return { kind: "edit", id: edit };
  const upscale = upscaleResultData.parse(data);
  return upscale && { kind: "upscale", ...upscale };
}

const isPicture = (g: Generation) => g.operation === "image" || g.operation === "edit";

/** The aspect ratio a picture result was asked with. */
function ratioOf(g: Generation, deps: ResultActionsDeps): string | undefined {
  const params = deps.generations.paramsOf(g);
  return params.operation === "image" || params.operation === "edit" ? params.imageSize : undefined;
}

/**
 * The buttons under a delivered result (also under its status message and in
 * /history): again (`rg:`, the same request, priced before anything is
 * spent), edit (`ed:`, every picture of the result up to the edit limit) and
 * a 4K version of one picture (`up:`, an edit panel already set, priced). Only
 * the requester may use them: anyone else is told and nothing changes.
 */
export function resultActions(deps: ResultActionsDeps, start: StartConversation): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const patterns = [regenerateData.pattern, editResultData.pattern, upscaleResultData.pattern];
  composer.callbackQuery(patterns, async (ctx) => {
    const action = actionOf(ctx.callbackQuery.data);
    const g = action ? await deps.generations.get(action.id) : undefined;
    const fileId = action?.kind === "upscale" ? g?.fileIds?.[action.picture] : undefined;
    if (
      !action ||
      !g ||
      (action.kind !== "again" && !isPicture(g)) ||
      (action.kind === "upscale" && !fileId)
    ) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    if (g.userId !== ctx.from.id) {
      await ctx.answerCallbackQuery({ text: ctx.t("ra-not-yours") });
      return;
    }
    await ctx.answerCallbackQuery();
    const replyTo = ctx.callbackQuery.message?.message_id;
    const where = replyTo ? { replyTo } : {};
    const ratio = isPicture(g) ? ratioOf(g, deps) : undefined;
    const withRatio = ratio ? { ratio } : {};
    switch (action.kind) {
      case "again": {
        const params = deps.generations.paramsOf(g);
        return start(ctx, params.operation, { ...where, params } as Seed);
      }
      case "edit": {
        const images = (g.fileIds ?? [])
          .slice(0, limits.editMaxImageUrls)
          .map((id): PhotoInput => ({ ref: { kind: "telegram", fileId: id } }));
        return start(ctx, "edit", { ...where, ...withRatio, images });
      }
      case "upscale": {
        const model = upscaleModel(deps.prices);
        const images: PhotoInput[] = [{ ref: { kind: "telegram", fileId: fileId! } }];
        const seed: EditSeed = { ...where, ...withRatio, images, prompt: upscalePrompt };
        if (model) {
          seed.preset = {
            model,
            imageSize: ratio ?? "",
            resolution: upscaleResolution,
            numImages: 1,
          };
        }
        return start(ctx, "edit", seed);
      }
    }
  });
  return composer;
}
