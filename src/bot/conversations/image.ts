import type { Context } from "grammy";
import type { GenerationParams } from "../../generations/params";
import { askPrompt } from "./ask-prompt";
import {
  defaultImageOptions,
  type ImageOptions,
  imageOptionLines,
  imageOptionsFrom,
  imageQuote,
  imageSettings,
} from "./image-options";
import { type ConversationDeps, openConversation, priceLines, type SeedBase, shortened } from "./opening";
import { type PanelSpec, runPanel } from "./panel";
import type { Conv } from "./screen";
import { submitRequest } from "./submit";

export interface ImageSeed extends SeedBase {
  prompt?: string;
  /** a request to make again (retry, "again" button) */
  params?: Extract<GenerationParams, { operation: "image" }>;
}

interface ImageRequest {
  prompt: string;
  options: ImageOptions;
}

/** /image: a description, then the options panel with the price, then Confirm. */
export function imageConversation(deps: ConversationDeps) {
  return async function image(conversation: Conv, ctx: Context, seed: ImageSeed): Promise<void> {
    const { screen, t, who, available } = await openConversation(conversation, ctx, seed);
    const spec: PanelSpec<ImageRequest> = {
      summary: (s) =>
        [
          t("cv-title-image"),
          t("cv-line-prompt", { value: shortened(s.prompt) }),
          ...imageOptionLines(t, s.options),
          priceLines(t, imageQuote(deps.prices, s.options), available),
        ].join("\n"),
      settings: imageSettings<ImageRequest>(t, deps.prices),
      toggles: [],
      price: (s) => imageQuote(deps.prices, s.options),
    };

    let prompt = seed.prompt ?? seed.params?.prompt;
    let options = seed.params ? imageOptionsFrom(seed.params) : defaultImageOptions();
    for (;;) {
      if (prompt === undefined) {
        const asked = await askPrompt(screen, t("cv-ask-prompt-image"), { back: false });
        if (asked.kind !== "value") return screen.close(t("cv-cancelled"));
        prompt = asked.value;
      }
      const outcome = await runPanel(screen, spec, { prompt, options }, (s, shown) =>
        submitRequest(
          conversation,
          screen,
          deps,
          who,
          {
            operation: "image",
            prompt: s.prompt,
            model: s.options.model,
            imageSize: s.options.imageSize,
            ...(s.options.resolution ? { resolution: s.options.resolution } : {}),
            numImages: s.options.numImages,
          },
          shown,
        ),
      );
      if (outcome.kind === "done") return;
      if (outcome.kind === "cancel") return screen.close(t("cv-cancelled"));
      options = outcome.state.options;
      prompt = undefined;
    }
  };
}
