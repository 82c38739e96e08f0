import type { Context } from "grammy";
import type { SeedBase } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import type { ImageOptions } from "../../domain/generations/image-options";
import { defaultImageOptions, imageOptionsFrom, imageQuote } from "../../domain/generations/image-options";
import type { PhotoInput } from "../../domain/generations/inputs";
import { type GenerationParams, upscalePrompt } from "../../domain/generations/params";
import { shorten } from "../../platform/lib/shorten";
import { type ImageSize, imageSizes, nearestImageSize } from "../../platform/media-service/catalog";
import { imageOptionsOfStored } from "../preferences";
import { askPrompt } from "./ask-prompt";
import { collectPhotos } from "./collect-photos";
import { confirmRequest } from "./confirm-request";
import { imageOptionLines, imageSettings } from "./image-settings";
import { type ConversationDeps, openRequest } from "./open-request";
import { type PanelSpec, runPanel } from "./panel";
import { readRemembered, rememberedLines } from "./remembered";
import { priceLines, summaryPromptLength } from "./summary";

export interface EditSeed extends SeedBase {
  prompt?: string;
  images?: PhotoInput[];
  /** the media_group_id of the album the request came with: more photos are on their way, stay on the photo step */
  album?: string;
  params?: Extract<GenerationParams, { operation: "edit" }>;
  /** the aspect ratio of the pictures when known without their sizes (a result's own) */
  ratio?: string;
  /**
   * options set by an action on a result (a higher resolution): shown with
   * their price like any other, but not remembered as the user's choice
   */
  preset?: { model: string; imageSize: string; resolution?: string; numImages: number };
  /**
   * the pictures guide a new one (a sent photo's "use as a reference"): the
   * question asks what to make, and the ratio is the user's, not the photo's
   */
  reference?: boolean;
}

/** The proportions of the picture to edit, when known: an edit keeps them. */
function ratioOf(seed: EditSeed, picture: PhotoInput | undefined): ImageSize | undefined {
  if (picture?.width && picture.height) return nearestImageSize(picture.width, picture.height);
  return seed.ratio && (imageSizes as readonly string[]).includes(seed.ratio)
    ? (seed.ratio as ImageSize)
    : undefined;
}

interface EditRequest {
  prompt: string;
  images: PhotoInput[];
  options: ImageOptions;
}

/**
 * /edit: 1–3 pictures (photos, an album, files, links, a replied-to photo or
 * a result's "edit" button), a description of the change, the options panel.
 */
export function editConversation(deps: ConversationDeps) {
  return async function edit(conversation: Conv, ctx: Context, seed: EditSeed): Promise<void> {
    const { screen, t, who, available, prices } = await openRequest(deps, conversation, ctx, seed);
    const remembered =
      seed.params || seed.preset
        ? undefined
        : imageOptionsOfStored(await readRemembered(conversation, deps, who.userId, "edit"));
    /**
     * The user's remembered model, resolution and count, but the ratio of the
     * picture when it is known: a remembered ratio belongs to another picture.
     */
    const startOptions = (picture: PhotoInput | undefined): ImageOptions => {
      if (seed.params) return imageOptionsFrom(seed.params);
      if (seed.preset) return imageOptionsFrom(seed.preset);
      const ratio = seed.reference ? undefined : ratioOf(seed, picture);
      const base = remembered ?? defaultImageOptions(seed.reference ? undefined : picture);
      return ratio ? { ...base, imageSize: ratio } : base;
    };
    const spec: PanelSpec<EditRequest> = {
      summary: (s, price) =>
        [
          t(seed.reference ? "cv-title-reference" : "cv-title-edit"),
          t("cv-line-photos", { value: s.images.length }),
          // a 4K version's prompt is ours (in English), not a description the user gave
          s.prompt === upscalePrompt
            ? t("cv-line-upscale")
            : t("cv-line-prompt", { value: shorten(s.prompt, summaryPromptLength) }),
          ...imageOptionLines(t, s.options),
          ...rememberedLines(t, remembered !== undefined),
          priceLines(t, price, available),
        ].join("\n"),
      settings: imageSettings<EditRequest>(t, prices),
      toggles: [],
      price: (s) => imageQuote(prices, s.options),
      available,
    };

    let images: PhotoInput[] = seed.images ?? seed.params?.images.map((ref) => ({ ref })) ?? [];
    let prompt = seed.prompt ?? seed.params?.prompt;
    let options = startOptions(images[0]);
    let step: "photos" | "prompt" | "panel" =
      images.length === 0 || seed.album ? "photos" : prompt === undefined ? "prompt" : "panel";
    for (;;) {
      if (step === "photos") {
        const collected = await collectPhotos(screen, { images, ...(prompt ? { prompt } : {}) }, seed.album);
        if (collected.kind !== "value") return screen.close(t("cv-cancelled"));
        if (images.length === 0) options = startOptions(collected.value.images[0]);
        images = collected.value.images;
        prompt = collected.value.prompt;
        step = prompt === undefined ? "prompt" : "panel";
      }
      if (step === "prompt") {
        const question = t(seed.reference ? "cv-ask-prompt-reference" : "cv-ask-prompt-edit");
        const asked = await askPrompt(screen, question, { back: true });
        if (asked.kind === "cancel") return screen.close(t("cv-cancelled"));
        if (asked.kind === "back") {
          step = "photos";
          continue;
        }
        prompt = asked.value;
      }
      const outcome = await runPanel(screen, spec, { prompt: prompt!, images, options }, (s, shown) =>
        confirmRequest(
          conversation,
          screen,
          deps,
          who,
          {
            operation: "edit",
            prompt: s.prompt,
            images: s.images.map((i) => i.ref),
            model: s.options.model,
            imageSize: s.options.imageSize,
            ...(s.options.resolution ? { resolution: s.options.resolution } : {}),
            numImages: s.options.numImages,
          },
          shown,
          seed.preset === undefined,
        ),
      );
      if (outcome.kind === "done") return;
      if (outcome.kind === "cancel") return screen.close(t("cv-cancelled"));
      options = outcome.state.options;
      prompt = undefined;
      step = "prompt";
    }
  };
}
