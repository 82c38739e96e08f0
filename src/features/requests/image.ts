import type { Context } from "grammy";
import type { SeedBase } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import type { ImageOptions } from "../../domain/generations/image-options";
import { defaultImageOptions, imageOptionsFrom, imageQuote } from "../../domain/generations/image-options";
import type { GenerationParams } from "../../domain/generations/params";
import { shorten } from "../../platform/lib/shorten";
import { imageOptionsOfStored } from "../preferences";
import { imageOptionLines, imageSettings } from "./image-settings";
import { type ConversationDeps, openRequest } from "./open-request";
import type { PanelSpec } from "./panel";
import { type PromptedRequest, promptThenPanel } from "./prompted-panel";
import { readRemembered, rememberedLines } from "./remembered";
import { priceLines, summaryPromptLength } from "./summary";

export interface ImageSeed extends SeedBase {
  prompt?: string;
  /** a request to make again (retry, "again" button) */
  params?: Extract<GenerationParams, { operation: "image" }>;
}

type ImageRequest = PromptedRequest<ImageOptions>;

/** /image: a description, then the options panel with the price, then Confirm. */
export function imageConversation(deps: ConversationDeps) {
  return async function image(conversation: Conv, ctx: Context, seed: ImageSeed): Promise<void> {
    const opening = await openRequest(deps, conversation, ctx, seed);
    const { t, available } = opening;
    // a request made again keeps its own options; otherwise the user's remembered ones, if any
    const remembered = seed.params
      ? undefined
      : imageOptionsOfStored(await readRemembered(conversation, deps, opening.who.userId, "image"));
    const spec: PanelSpec<ImageRequest> = {
      summary: (s, price) =>
        [
          t("cv-title-image"),
          t("cv-line-prompt", { value: shorten(s.prompt, summaryPromptLength) }),
          ...imageOptionLines(t, s.options),
          ...rememberedLines(t, remembered !== undefined),
          priceLines(t, price, available),
        ].join("\n"),
      settings: imageSettings<ImageRequest>(t, opening.prices),
      toggles: [],
      price: (s) => imageQuote(opening.prices, s.options),
      available,
    };

    await promptThenPanel(
      conversation,
      deps,
      opening,
      "cv-ask-prompt-image",
      "cv-example-image",
      spec,
      {
        prompt: seed.prompt ?? seed.params?.prompt,
        options: seed.params ? imageOptionsFrom(seed.params) : (remembered ?? defaultImageOptions()),
      },
      (s) => ({
        operation: "image",
        prompt: s.prompt,
        model: s.options.model,
        imageSize: s.options.imageSize,
        ...(s.options.resolution ? { resolution: s.options.resolution } : {}),
        numImages: s.options.numImages,
      }),
    );
  };
}
