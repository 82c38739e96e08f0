import type { Context } from "grammy";
import type { SeedBase } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import { dubBudgets } from "../../domain/generations/dub-parts";
import { defaultDubInputRules, type MediaInput } from "../../domain/generations/inputs";
import { dubLanguageName, type GenerationParams, sourceName } from "../../domain/generations/params";
import { maxDubSeconds, quote } from "../../domain/generations/quote";
import type { Translate } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import {
  type DubbingLanguage,
  type DubbingSourceLanguage,
  defaultDubTarget,
  dubbingLanguages,
  isDubbingLanguage,
} from "../../platform/media-service/catalog";
import { dubLanguagesFrom, dubLanguagesOfStored } from "../preferences";
import { collectMedia } from "./collect-media";
import { confirmRequest } from "./confirm-request";
import { withLinkLength } from "./link-length";
import { type ConversationDeps, openRequest } from "./open-request";
import { type PanelSpec, runPanel, type Setting } from "./panel";
import { readRemembered, rememberedLines } from "./remembered";
import { priceLines } from "./summary";

export interface DubSeed extends SeedBase {
  media?: MediaInput;
  target?: DubbingLanguage;
  params?: Extract<GenerationParams, { operation: "dub" }>;
}

interface DubRequest {
  media: MediaInput;
  target: DubbingLanguage;
  source: DubbingSourceLanguage;
}

const isTarget = isDubbingLanguage;
const isSource = (v: string): v is DubbingSourceLanguage => v === "auto" || isTarget(v);

function languageSettings(t: Translate): Setting<DubRequest>[] {
  const layout = { perRow: 3, perPage: 12 };
  return [
    {
      id: "tl",
      visible: () => true,
      button: (s) => t("cv-btn-target", { value: dubLanguageName(t, s.target) }),
      title: () => t("cv-pick-target"),
      // the service refuses a source equal to the target
      choices: (s) =>
        dubbingLanguages
          .filter((l) => l !== s.source)
          .map((l) => ({ value: l, label: dubLanguageName(t, l) })),
      current: (s) => s.target,
      apply: (s, v) => (isTarget(v) && v !== s.source ? { ...s, target: v } : s),
      layout,
    },
    {
      id: "sl",
      visible: () => true,
      button: (s) => t("cv-btn-source", { value: dubLanguageName(t, s.source) }),
      title: () => t("cv-pick-source"),
      choices: (s) =>
        (["auto", ...dubbingLanguages] as const)
          .filter((l) => l !== s.target)
          .map((l) => ({ value: l, label: dubLanguageName(t, l) })),
      current: (s) => s.source,
      apply: (s, v) => (isSource(v) && v !== s.target ? { ...s, source: v } : s),
      layout,
    },
  ];
}

function lengthLine(t: Translate, media: MediaInput): string {
  if (media.durationSeconds === undefined)
    return t("cv-line-length-unknown", { minutes: maxDubSeconds / 60 });
  const total = Math.round(media.durationSeconds);
  const parts = dubBudgets(media.durationSeconds).length;
  if (parts > 1)
    return t("cv-line-length-parts", { minutes: Math.floor(total / 60), seconds: total % 60, parts });
  return t("cv-line-length", {
    minutes: Math.floor(total / 60),
    seconds: String(total % 60).padStart(2, "0"),
  });
}

function mediaFromParams(p: NonNullable<DubSeed["params"]>): MediaInput {
  return {
    ref: p.source,
    ...(p.kind ? { kind: p.kind } : {}),
    ...(p.durationSeconds !== undefined ? { durationSeconds: p.durationSeconds } : {}),
    label: sourceName(p.source) ?? p.kind ?? "file",
  };
}

/** /dub: a file or link, the target (and source) language from 30 (plus auto), the price, Confirm. */
export function dubConversation(deps: ConversationDeps) {
  return async function dub(conversation: Conv, ctx: Context, seed: DubSeed): Promise<void> {
    const { screen, t, who, available, language, prices } = await openRequest(deps, conversation, ctx, seed);
    const rules = deps.dubRules ?? defaultDubInputRules;
    const fallback = defaultDubTarget(language);
    const remembered = seed.params
      ? undefined
      : dubLanguagesOfStored(await readRemembered(conversation, deps, who.userId, "dub"), fallback);
    const quoteOf = (s: DubRequest) =>
      quote(prices, { operation: "dub", durationSeconds: s.media.durationSeconds });
    const spec: PanelSpec<DubRequest> = {
      summary: (s, price) =>
        [
          t("cv-title-dub"),
          t("cv-line-file", { value: shorten(s.media.label, 80) }),
          lengthLine(t, s.media),
          t("cv-line-target", { value: dubLanguageName(t, s.target) }),
          t("cv-line-source", { value: dubLanguageName(t, s.source) }),
          ...rememberedLines(t, remembered !== undefined),
          priceLines(t, price, available),
        ].join("\n"),
      settings: languageSettings(t),
      toggles: [],
      price: quoteOf,
      available,
    };

    let media = seed.media ?? (seed.params ? mediaFromParams(seed.params) : undefined);
    const start = seed.params
      ? dubLanguagesFrom(seed.params, fallback)
      : (remembered ?? { target: fallback, source: "auto" as const });
    // a language named with the command wins; the source must then differ from it
    let target: DubbingLanguage = seed.target ?? start.target;
    let source: DubbingSourceLanguage = start.source === target ? "auto" : start.source;
    for (;;) {
      if (media === undefined) {
        const collected = await collectMedia(screen, rules);
        if (collected.kind !== "value") return screen.close(t("cv-cancelled"));
        media = collected.value;
      }
      media = await withLinkLength(conversation, screen, media, rules, deps.linkDuration);
      if (media === undefined) continue;
      const outcome = await runPanel(screen, spec, { media, target, source }, (s, shown) =>
        confirmRequest(
          conversation,
          screen,
          deps,
          // the result answers the file's message, not a bare "/dub"
          { ...who, replyTo: s.media.messageId ?? who.replyTo },
          {
            operation: "dub",
            source: s.media.ref,
            targetLanguage: s.target,
            sourceLanguage: s.source,
            ...(s.media.durationSeconds !== undefined ? { durationSeconds: s.media.durationSeconds } : {}),
            ...(s.media.kind ? { kind: s.media.kind } : {}),
          },
          shown,
        ),
      );
      if (outcome.kind === "done") return;
      if (outcome.kind === "cancel") return screen.close(t("cv-cancelled"));
      ({ target, source } = outcome.state);
      media = undefined;
    }
  };
}
