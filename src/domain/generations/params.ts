import { z } from "zod";
import { hasVisibleCharacter } from "../../platform/lib/visible-text";
import { isDubbingLanguage } from "../../platform/media-service/catalog";

/**
 * What a user asked for, as stored in generations.params (versioned: rows
 * written by an older release still parse). Inputs from Telegram are kept as
 * file ids; they become signed URLs of our file proxy only when submitted.
 */
export const inputRef = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("telegram"),
    fileId: z.string().min(1),
    fileUniqueId: z.string().optional(),
    size: z.number().int().nonnegative().optional(),
    mimeType: z.string().optional(),
    fileName: z.string().optional(),
  }),
  z.object({
    kind: z.literal("url"),
    url: z.url({ protocol: /^https$/, error: "must be an https link" }),
  }),
]);
export type InputRef = z.infer<typeof inputRef>;

/** The longest prompt accepted (after trimming), in the chat, inline mode and the Mini App alike. */
export const promptMaxLength = 2000;

const prompt = z
  .string()
  .trim()
  .refine(hasVisibleCharacter, "the prompt is empty")
  .max(promptMaxLength, `the prompt is longer than ${promptMaxLength} characters`);

export const imageParams = z.object({
  v: z.literal(1).default(1),
  operation: z.literal("image"),
  prompt,
  model: z.string(),
  imageSize: z.string(),
  resolution: z.string().optional(),
  numImages: z.number().int().min(1).max(4),
});
const editParams = imageParams.extend({
  operation: z.literal("edit"),
  images: z.array(inputRef).min(1).max(3),
});
const videoParams = z.object({
  v: z.literal(1).default(1),
  operation: z.literal("video"),
  prompt,
  model: z.string(),
  duration: z.number().int().positive(),
  resolution: z.string(),
  aspectRatio: z.string(),
  generateAudio: z.boolean().optional(),
  webSearch: z.boolean().optional(),
});
const dubParams = z.object({
  v: z.literal(1).default(1),
  operation: z.literal("dub"),
  source: inputRef,
  targetLanguage: z.string(),
  sourceLanguage: z.string().default("auto"),
  /** from Telegram, or read from a link's first bytes; unknown: priced at the 5-minute maximum */
  durationSeconds: z.number().nonnegative().optional(),
  kind: z.enum(["audio", "video"]).optional(),
  /** "auto": the language the service said it heard, when it said one (set at completion) */
  detectedLanguage: z.string().optional(),
});

export const generationParams = z.discriminatedUnion("operation", [
  imageParams,
  editParams,
  videoParams,
  dubParams,
]);
export type GenerationParams = z.infer<typeof generationParams>;
export type GenerationParamsInput = z.input<typeof generationParams>;
export type { Operation } from "../../platform/media-service/catalog";

/**
 * The prompt of a 4K version of a result's picture (the ⬆️ 4K button): the
 * service reads English. Ours, not the user's: never shown as their words.
 */
export const upscalePrompt =
  "Keep this picture exactly as it is: the same content, composition, colours, text and style. " +
  "Only raise its resolution to 4K, sharpening edges and adding fine detail, without changing anything.";

/** Text in the user's language (`ctx.t`, or a worker's translator bound to the user's language). */
type Words = (key: string, vars?: Record<string, string | number>) => string;

/** A dubbing language's name in the user's language ("auto": detected); a code the catalog lacks as it is. */
export function dubLanguageName(t: Words, code: string): string {
  if (code === "auto") return t("cv-lang-auto");
  return isDubbingLanguage(code) ? t(`dub-lang-${code}`) : code;
}

/** What a dub's source is called where the user sees it: the file's name or the link; undefined when it has neither (a voice message). */
export function sourceName(source: InputRef): string | undefined {
  return source.kind === "url" ? source.url : source.fileName;
}

/** A short human line describing the request in the user's language, for captions and history. */
export function describeParams(p: GenerationParams, t: Words): string {
  switch (p.operation) {
    case "edit":
      return p.prompt === upscalePrompt ? t("upscale-description") : p.prompt;
    case "image":
    case "video":
      return p.prompt;
    case "dub": {
      const target = dubLanguageName(t, p.targetLanguage);
      const source = p.sourceLanguage === "auto" ? p.detectedLanguage : p.sourceLanguage;
      // detected, but not said which: "Dubbed into Spanish", never "Auto-detect → Spanish"
      if (!source) return t("dub-description-into", { target });
      return `${dubLanguageName(t, source)} → ${target}`;
    }
  }
}
