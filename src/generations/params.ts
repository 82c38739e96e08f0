import { z } from "zod";
import { hasVisibleCharacter } from "../lib/visible-text";

/**
 * What a user asked for, as stored in generations.params (versioned: rows
 * written by an older release still parse). Inputs from Telegram are kept as
 * file ids; they become signed URLs of our file proxy only when submitted.
 */
const inputRef = z.discriminatedUnion("kind", [
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

const prompt = z
  .string()
  .trim()
  .refine(hasVisibleCharacter, "the prompt is empty")
  .max(2000, "the prompt is longer than 2000 characters");

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
});

export const generationParams = z.discriminatedUnion("operation", [
  imageParams,
  editParams,
  videoParams,
  dubParams,
]);
export type GenerationParams = z.infer<typeof generationParams>;
export type GenerationParamsInput = z.input<typeof generationParams>;
export type { Operation } from "../media/catalog";

/** A short human line describing the request, for captions and history. */
export function describeParams(p: GenerationParams): string {
  switch (p.operation) {
    case "image":
    case "edit":
    case "video":
      return p.prompt;
    case "dub":
      return `${p.sourceLanguage} → ${p.targetLanguage}`;
  }
}
