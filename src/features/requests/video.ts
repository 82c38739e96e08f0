import type { Context } from "grammy";
import type { SeedBase } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import { videoChoicePrices } from "../../domain/generations/choice-prices";
import type { GenerationParams } from "../../domain/generations/params";
import { quote } from "../../domain/generations/quote";
import {
  defaultVideoOptions,
  fitVideoOptions,
  type VideoOptions,
  videoOptionsFrom,
} from "../../domain/generations/video-options";
import type { Prices } from "../../domain/pricing/prices";
import type { Translate } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import {
  allowedDurations,
  isVideoModel,
  type VideoAspectRatio,
  type VideoResolution,
  videoModelIds,
  videoModelInfo,
} from "../../platform/media-service/catalog";
import { videoOptionsOfStored } from "../preferences";
import { type ConversationDeps, openRequest } from "./open-request";
import type { PanelSpec, Setting, Toggle } from "./panel";
import { type PromptedRequest, promptThenPanel } from "./prompted-panel";
import { readRemembered, rememberedLines } from "./remembered";
import { priced, priceLines, summaryPromptLength } from "./summary";

export interface VideoSeed extends SeedBase {
  prompt?: string;
  params?: Extract<GenerationParams, { operation: "video" }>;
}

type VideoRequest = PromptedRequest<VideoOptions>;

export { fitVideoOptions };

const videoQuote = (prices: Prices, o: VideoOptions) => quote(prices, { operation: "video", ...o });

function videoSettings(t: Translate, prices: Prices): Setting<VideoRequest>[] {
  const set = (s: VideoRequest, patch: Partial<VideoOptions>): VideoRequest => ({
    ...s,
    options: fitVideoOptions({ ...s.options, ...patch }, s.options.model),
  });
  return [
    {
      id: "m",
      visible: () => true,
      button: (s) => t("cv-btn-model", { value: s.options.model }),
      title: () => t("cv-pick-model-video"),
      choices: (s) =>
        videoModelIds.map((model) => ({
          value: model,
          label: priced(t, model, videoChoicePrices(prices, s.options).model?.[model]),
        })),
      current: (s) => s.options.model,
      apply: (s, v) => (isVideoModel(v) ? { ...s, options: fitVideoOptions(s.options, v) } : s),
      layout: { perRow: 1, perPage: 8 },
    },
    {
      id: "d",
      visible: () => true,
      button: (s) => t("cv-btn-duration", { value: s.options.duration }),
      title: () => t("cv-pick-duration"),
      choices: (s) =>
        allowedDurations(s.options.model).map((d) => ({
          value: String(d),
          label: priced(
            t,
            t("cv-seconds", { value: d }),
            videoChoicePrices(prices, s.options).duration?.[String(d)],
          ),
        })),
      current: (s) => String(s.options.duration),
      apply: (s, v) => set(s, { duration: Number(v) }),
      layout: { perRow: 4, perPage: 16 },
    },
    {
      id: "r",
      visible: (s) => videoModelInfo(s.options.model).resolutions.length > 1,
      button: (s) => t("cv-btn-resolution", { value: s.options.resolution }),
      title: () => t("cv-pick-resolution"),
      choices: (s) =>
        videoModelInfo(s.options.model).resolutions.map((r) => ({
          value: r,
          label: priced(t, r, videoChoicePrices(prices, s.options).resolution?.[r]),
        })),
      current: (s) => s.options.resolution,
      apply: (s, v) => set(s, { resolution: v as VideoResolution }),
      layout: { perRow: 2, perPage: 4 },
    },
    {
      id: "a",
      visible: (s) => videoModelInfo(s.options.model).aspectRatios.length > 1,
      button: (s) => t("cv-btn-aspect", { value: s.options.aspectRatio }),
      title: () => t("cv-pick-aspect"),
      choices: (s) =>
        videoModelInfo(s.options.model).aspectRatios.map((a) => ({
          value: a,
          label: a === "auto" ? t("cv-aspect-auto") : a,
        })),
      current: (s) => s.options.aspectRatio,
      apply: (s, v) => set(s, { aspectRatio: v as VideoAspectRatio }),
      layout: { perRow: 4, perPage: 8 },
    },
  ];
}

function videoToggles(t: Translate): Toggle<VideoRequest>[] {
  const onOff = (on: boolean) => t(on ? "cv-on" : "cv-off");
  return [
    {
      id: "au",
      visible: (s) => videoModelInfo(s.options.model).audio,
      button: (s) => t("cv-btn-audio", { value: onOff(s.options.generateAudio) }),
      flip: (s) => ({ ...s, options: { ...s.options, generateAudio: !s.options.generateAudio } }),
    },
    {
      id: "ws",
      visible: (s) => videoModelInfo(s.options.model).webSearch,
      button: (s) => t("cv-btn-web", { value: onOff(s.options.webSearch) }),
      flip: (s) => ({ ...s, options: { ...s.options, webSearch: !s.options.webSearch } }),
    },
  ];
}

function optionLines(t: Translate, o: VideoOptions): string[] {
  const info = videoModelInfo(o.model);
  const onOff = (on: boolean) => t(on ? "cv-on" : "cv-off");
  const lines = [
    t("cv-line-model", { value: o.model }),
    t("cv-line-duration", { value: o.duration }),
    t("cv-line-resolution", { value: o.resolution }),
    t("cv-line-aspect", { value: o.aspectRatio === "auto" ? t("cv-aspect-auto") : o.aspectRatio }),
  ];
  if (info.audio) lines.push(t("cv-line-audio", { value: onOff(o.generateAudio) }));
  if (info.webSearch) lines.push(t("cv-line-web", { value: onOff(o.webSearch) }));
  return lines;
}

/** /video: a description, then model, duration, resolution, ratio (and sound, web search) with prices. */
export function videoConversation(deps: ConversationDeps) {
  return async function video(conversation: Conv, ctx: Context, seed: VideoSeed): Promise<void> {
    const opening = await openRequest(deps, conversation, ctx, seed);
    const { t, available } = opening;
    // a request made again keeps its own options; otherwise the user's remembered ones, if any
    const remembered = seed.params
      ? undefined
      : videoOptionsOfStored(await readRemembered(conversation, deps, opening.who.userId, "video"));
    const spec: PanelSpec<VideoRequest> = {
      summary: (s, price) =>
        [
          t("cv-title-video"),
          t("cv-line-prompt", { value: shorten(s.prompt, summaryPromptLength) }),
          ...optionLines(t, s.options),
          ...rememberedLines(t, remembered !== undefined),
          priceLines(t, price, available),
        ].join("\n"),
      settings: videoSettings(t, opening.prices),
      toggles: videoToggles(t),
      price: (s) => videoQuote(opening.prices, s.options),
      available,
    };

    await promptThenPanel(
      conversation,
      deps,
      opening,
      "cv-ask-prompt-video",
      "cv-example-video",
      spec,
      {
        prompt: seed.prompt ?? seed.params?.prompt,
        options: seed.params ? videoOptionsFrom(seed.params) : (remembered ?? defaultVideoOptions()),
      },
      (s) => ({
        operation: "video",
        prompt: s.prompt,
        model: s.options.model,
        duration: s.options.duration,
        resolution: s.options.resolution,
        aspectRatio: s.options.aspectRatio,
        ...(videoModelInfo(s.options.model).audio ? { generateAudio: s.options.generateAudio } : {}),
        ...(videoModelInfo(s.options.model).webSearch ? { webSearch: s.options.webSearch } : {}),
      }),
    );
  };
}
