import { z } from "zod";
import { entryLabels } from "../../domain/credits/entry-labels";
import { promptMaxLength } from "../../domain/generations/params";
import { languages } from "../../platform/i18n/language";
import { limits, operations } from "../../platform/media-service/catalog";
import { chatWordKeys } from "./chat-words";

/**
 * The Mini App's HTTP API: every request and answer, shared by the server
 * (src/features/miniapp/routes/) and the page (src/features/miniapp/web). Imports only what a
 * browser bundle may carry (zod and pure constants).
 *
 * Every call carries `Authorization: tma <initData>`: the raw initData query
 * string Telegram gives the app. The user is who initData says, never a parameter.
 */

// the addresses and the header live in api-paths.ts, apart from zod, so that the page can import them without it
export { authScheme, uploadFieldName } from "./api-paths";

// ---------------------------------------------------------------- shared pieces

export const operationSchema = z.enum(operations);
export type AppOperation = z.infer<typeof operationSchema>;
export const languageSchema = z.enum(languages);

const count = z.number().int().nonnegative();
const credits = z.number().int();
/** ISO 8601 date-time */
const isoDate = z.string();

export const balanceSchema = z.object({ available: count, held: count });
export type Balance = z.infer<typeof balanceSchema>;

export const packSchema = z.object({
  id: z.string(),
  credits: count,
  bonus: count,
  stars: count,
});
export type Pack = z.infer<typeof packSchema>;

/**
 * Every error answer: 400 invalid, 401 unauthorized, 403 banned or draft_refused,
 * 404 not_found, 409 the rest, 429 rate_limited.
 */
export const errorCodes = [
  "invalid",
  "unauthorized",
  "banned",
  /** POST /generate: the draft was not issued to this caller (forged, another user's, or from before a change of secret) */
  "draft_refused",
  "not_found",
  "rate_limited",
  "insufficient",
  "price_changed",
  "no_price",
  /** POST /generate: the prompt matches one of the operator's refused words (nothing held) */
  "refused_prompt",
  "not_available",
  "unavailable",
] as const;
export const errorSchema = z.object({
  error: z.enum(errorCodes),
  /** in the user's language where the user should read it (banned, rate_limited, invalid) */
  message: z.string().optional(),
  price: count.optional(),
  available: count.optional(),
  missing: count.optional(),
  /** rate_limited: when to try again */
  retryAfterSeconds: count.optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

// ---------------------------------------------------------------- GET /me

export const meResponse = z.object({
  user: z.object({ id: z.number().int(), firstName: z.string(), language: languageSchema }),
  balance: balanceSchema,
  isAdmin: z.boolean(),
  packs: z.array(packSchema),
  /** the chat's own words for what the page says too, in the user's language, `{name}` where a value goes (chat-words.ts) */
  words: z.record(z.enum(chatWordKeys), z.string()),
});
export type MeResponse = z.infer<typeof meResponse>;
export type ChatWords = MeResponse["words"];

// ---------------------------------------------------------------- gallery and results

export const mediaKinds = ["photo", "video", "audio", "document"] as const;
export const mediaItemSchema = z.object({
  kind: z.enum(mediaKinds),
  /** a signed link of our file proxy (/files/<token>) */
  url: z.string(),
  /** a picture to show for a video (the first picture of the result, when it has one) */
  poster: z.string().optional(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const resultSummarySchema = z.object({
  id: z.string(),
  operation: operationSchema,
  createdAt: isoDate,
  /** the request's words in the user's language (a 4K version and a dubbing say what they are) */
  prompt: z.string(),
  /** credits the result cost */
  cost: count,
  media: z.array(mediaItemSchema),
});
export type ResultSummary = z.infer<typeof resultSummarySchema>;

/** `before`: the `next` of the previous page; absent: the newest. */
export const galleryQuery = z.object({
  operation: operationSchema.optional(),
  before: z.string().max(200).optional(),
  limit: z.coerce.number<number>().int().min(1).max(60).default(24),
});
export type GalleryQuery = z.input<typeof galleryQuery>;
export const galleryResponse = z.object({
  items: z.array(resultSummarySchema),
  /** the cursor of the next (older) page; null at the end */
  next: z.string().nullable(),
});
export type GalleryResponse = z.infer<typeof galleryResponse>;

/** The options a result was made with (those its operation has). */
export const resultOptionsSchema = z.object({
  model: z.string().optional(),
  imageSize: z.string().optional(),
  resolution: z.string().optional(),
  numImages: count.optional(),
  duration: count.optional(),
  aspectRatio: z.string().optional(),
  generateAudio: z.boolean().optional(),
  webSearch: z.boolean().optional(),
  sourceLanguage: z.string().optional(),
  targetLanguage: z.string().optional(),
});
export type ResultOptions = z.infer<typeof resultOptionsSchema>;

export const resultResponse = resultSummarySchema.extend({
  options: resultOptionsSchema,
  /** made by the ⬆️ 4K action */
  upscale: z.boolean(),
  /** what the actions under it may do: again for every result, edit and 4K for pictures */
  actions: z.object({ again: z.boolean(), edit: z.boolean(), upscale: z.boolean() }),
});
export type ResultResponse = z.infer<typeof resultResponse>;

export const resendResponse = z.object({ sent: z.literal(true) });
export type ResendResponse = z.infer<typeof resendResponse>;

// ---------------------------------------------------------------- inputs, requests, prices

/**
 * An input of an edit or a dubbing: a file uploaded through POST /uploads,
 * or a picture of one of the user's own results (`picture`: its index).
 * `url` is for showing it only; the server never reads it.
 */
export const inputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("upload"), id: z.string().min(1).max(2000), url: z.string().optional() }),
  z.object({
    kind: z.literal("result"),
    id: z.string().min(1).max(64),
    picture: z.number().int().min(0).max(15),
    url: z.string().optional(),
  }),
]);
export type AppInput = z.infer<typeof inputSchema>;

const prompt = z.string().max(promptMaxLength);
const imageFields = {
  prompt,
  model: z.string().max(64),
  imageSize: z.string().max(16),
  resolution: z.string().max(16).optional(),
  numImages: z.number().int().min(limits.numImages.min).max(limits.numImages.max),
};

/** What the composer asks for: the chat's options, inputs by reference. */
export const composeRequestSchema = z.discriminatedUnion("operation", [
  z.object({ operation: z.literal("image"), ...imageFields }),
  z.object({
    operation: z.literal("edit"),
    ...imageFields,
    images: z.array(inputSchema).min(1).max(limits.editMaxImageUrls),
  }),
  z.object({
    operation: z.literal("video"),
    prompt,
    model: z.string().max(64),
    duration: z.number().int().positive().max(600),
    resolution: z.string().max(16),
    aspectRatio: z.string().max(16),
    generateAudio: z.boolean().optional(),
    webSearch: z.boolean().optional(),
  }),
  z.object({
    operation: z.literal("dub"),
    source: inputSchema,
    targetLanguage: z.string().max(16),
    sourceLanguage: z.string().max(16).default("auto"),
  }),
]);
export type ComposeRequest = z.input<typeof composeRequestSchema>;

/** POST /quote: only what a price depends on (a dubbing: its source's length, read by the server). */
export const quoteRequestSchema = z.object({
  request: z.discriminatedUnion("operation", [
    z.object({
      operation: z.enum(["image", "edit"]),
      model: z.string().max(64),
      resolution: z.string().max(16).optional(),
      numImages: z.number().int().min(limits.numImages.min).max(limits.numImages.max),
    }),
    z.object({
      operation: z.literal("video"),
      model: z.string().max(64),
      resolution: z.string().max(16),
      duration: z.number().int().positive().max(600),
    }),
    z.object({ operation: z.literal("dub"), source: inputSchema.optional() }),
  ]),
});
export type QuoteRequest = z.input<typeof quoteRequestSchema>;
/**
 * `credits` null: no price for these options (the chat's panel cannot confirm them either).
 * `choices`: option name (model, resolution, numImages, duration) → value → what that choice
 * would cost with the others as they are, as the chat's pickers show it (null: no price).
 * `balance`: the caller's, now. `upTo`: the charge may come out lower than `credits` (a dub,
 * settled to the length dubbed): the page says "up to", as the chat does.
 */
export const quoteResponse = z.object({
  credits: count.nullable(),
  upTo: z.boolean(),
  choices: z.record(z.string(), z.record(z.string(), count.nullable())),
  balance: balanceSchema,
});
export type QuoteResponse = z.infer<typeof quoteResponse>;

/** GET /composer: where the composer starts, as the chat's panels do: each operation's remembered options, else the defaults. */
const imageStart = z.object({
  model: z.string(),
  imageSize: z.string(),
  resolution: z.string().optional(),
  numImages: count,
});
export const composerResponse = z.object({
  start: z.object({
    image: imageStart,
    edit: imageStart,
    video: z.object({
      model: z.string(),
      duration: count,
      resolution: z.string(),
      aspectRatio: z.string(),
      generateAudio: z.boolean(),
      webSearch: z.boolean(),
    }),
    dub: z.object({ targetLanguage: z.string(), sourceLanguage: z.string() }),
  }),
  /** the operations that start from the user's remembered options (/settings) */
  remembered: z.array(operationSchema),
  /** the longest prompt accepted, as in the chat */
  promptMaxLength: count,
  /** the longest dubbing source, as in the chat (longer than 5 minutes, it is dubbed in parts) */
  dubMaxMinutes: count,
  /** a new draft for the composer's Confirm (see generateRequestSchema) */
  draft: z.string(),
});
export type ComposerResponse = z.infer<typeof composerResponse>;
export type StartOptions = ComposerResponse["start"];

/** POST /uploads (multipart/form-data, one field `file`): an input for edit or dub. */
export const uploadResponse = z.object({
  input: z.object({ kind: z.literal("upload"), id: z.string(), url: z.string().optional() }),
  media: z.enum(["photo", "audio", "video"]),
  /** audio and video: the length read from the file, when readable */
  durationSeconds: z.number().nonnegative().optional(),
});
export type UploadResponse = z.infer<typeof uploadResponse>;

/**
 * POST /drafts: a new draft, for a deliberate new request ("Make another"). A
 * draft is issued by the server to one user (GET /composer gives one too) and
 * spends at most once: see generateRequestSchema.
 */
export const draftResponse = z.object({ draft: z.string() });
export type DraftResponse = z.infer<typeof draftResponse>;

/**
 * POST /generate: the request of one draft. The draft is the generation's key:
 * the first call makes it; every later call with the same draft, whatever its
 * request, answers that same generation (`created` false) and holds nothing.
 * A draft not issued to the caller is refused (403 draft_refused). A page of
 * before drafts sends `key` without `draft`: refused as invalid (400), so that
 * it is reloaded rather than spending once per press.
 */
export const generateRequestSchema = z.object({
  draft: z.string({ error: "a draft from GET /composer or POST /drafts is required" }).min(1).max(200),
  request: composeRequestSchema,
  /** the price the user saw; when prices changed since, nothing is made (409 price_changed) */
  expectedPrice: count.optional(),
});
export type GenerateRequest = z.input<typeof generateRequestSchema>;
export const generateResponse = z.object({
  id: z.string(),
  /** false: this draft had made it already (a second press) */
  created: z.boolean(),
  price: count,
  /** the caller's balance with this request's credits held */
  balance: balanceSchema,
});
export type GenerateResponse = z.infer<typeof generateResponse>;

/**
 * GET /generations/:id: where one of the caller's requests is, as its status
 * message in the chat says it. `phase`: queued (waiting its turn), generating
 * (the service works on it, or it is being sent), done (delivered), ended
 * (failed, refused, expired or cancelled: `text` says why and what came back).
 */
export const requestPhases = ["queued", "generating", "done", "ended"] as const;
export const requestStatusResponse = z.object({
  id: z.string(),
  phase: z.enum(requestPhases),
  /** the chat's status words for it, in the user's language */
  text: z.string(),
  /** done with files: the result to open (GET /results/:id) */
  resultId: z.string().nullable(),
  balance: balanceSchema,
});
export type RequestStatusResponse = z.infer<typeof requestStatusResponse>;

/** GET /results/:id/preset?action=…&picture=N: the composer set as the chat's buttons under a result set it. */
export const presetActions = ["again", "edit", "upscale"] as const;
export const presetQuery = z.object({
  action: z.enum(presetActions),
  picture: z.coerce.number<number>().int().min(0).max(15).default(0),
});
export type PresetQuery = z.input<typeof presetQuery>;
export const presetResponse = z.object({
  operation: operationSchema,
  /** the fields to set; the composer fills the rest with its defaults */
  request: resultOptionsSchema.extend({
    prompt: z.string().optional(),
    images: z.array(inputSchema).optional(),
    source: inputSchema.optional(),
  }),
  /** a 4K version: the prompt is ours (show "4K version", not the words) and the options are set */
  upscale: z.boolean(),
});
export type PresetResponse = z.infer<typeof presetResponse>;

// ---------------------------------------------------------------- credits and buying

export const creditEntrySchema = z.object({
  label: z.enum(entryLabels),
  /** what /balance says of it, in the user's language (the chat's credit-entry-* text) */
  text: z.string(),
  amount: count,
  back: count,
  at: isoDate,
});
/** A monthly plan on sale; `text`: how /plans describes it, in the caller's language. */
export const planSchema = z.object({
  id: z.string(),
  stars: count,
  credits: count,
  discount: count,
  text: z.string(),
});
export type PlanOffer = z.infer<typeof planSchema>;
/** The caller's running plan; `text`: /balance's line for it (which plan, until when, renewing or not). */
export const activePlanSchema = z.object({
  id: z.string(),
  until: isoDate,
  renews: z.boolean(),
  text: z.string(),
});
export const creditsResponse = z.object({
  balance: balanceSchema,
  entries: z.array(creditEntrySchema),
  packs: z.array(packSchema),
  plans: z.array(planSchema),
  plan: activePlanSchema.nullable(),
});
export type CreditsResponse = z.infer<typeof creditsResponse>;

/** A pack to buy, or a plan to subscribe to: either opens the same Stars invoice as the chat's. */
export const buyRequestSchema = z.union([
  z.strictObject({ packId: z.string().max(16) }),
  z.strictObject({ planId: z.string().max(16) }),
]);
export type BuyRequest = z.infer<typeof buyRequestSchema>;
export const buyResponse = z.object({ invoiceLink: z.string() });
export type BuyResponse = z.infer<typeof buyResponse>;

// ---------------------------------------------------------------- reports

/** GET /admin/reports: the open reports of results in groups, newest first. */
export const reportsResponse = z.object({
  reports: z.array(
    z.object({
      generationId: z.string(),
      createdAt: z.string(),
      group: z.string(),
      maker: z.string(),
      operation: z.string(),
      prompt: z.string(),
      reporters: z.number().int().positive(),
    }),
  ),
});
export type ReportsResponse = z.infer<typeof reportsResponse>;

// ---------------------------------------------------------------- privacy

/** POST /privacy/erase: "Delete my data", asked once more on the page (confirm: true). */
export const eraseRequestSchema = z.strictObject({ confirm: z.literal(true) });
export type EraseRequest = z.infer<typeof eraseRequestSchema>;
/** What was erased, and the chat's words for it (what was kept, and why). */
export const eraseResponse = z.object({
  requests: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative(),
  message: z.string(),
});
export type EraseResponse = z.infer<typeof eraseResponse>;

// ---------------------------------------------------------------- admin

export const statsQuery = z.object({ days: z.coerce.number<number>().int().min(1).max(90).default(30) });

/** The figures of /stats, as collectStats reads them. */
export const todayStatsSchema = z.object({
  users: z.object({
    total: count,
    active1: count,
    active7: count,
    active30: count,
    blocked: count,
    banned: count,
  }),
  generations: z.array(
    z.object({
      operation: operationSchema,
      state: z.string(),
      counts: z.object({ today: count, week: count, all: count }),
    }),
  ),
  credits: z.object({
    granted: credits,
    sold: credits,
    adjusted: credits,
    held: credits,
    charged: credits,
    refunded: credits,
  }),
  service: z.object({ spent: credits, orphanCredits: credits, orphanTasks: count }),
  margin: credits,
});
export type TodayStats = z.infer<typeof todayStatsSchema>;

/** One UTC day: generations made that day by operation and state, and the credits moved that day. */
export const dayStatsSchema = z.object({
  /** YYYY-MM-DD (UTC) */
  day: z.string(),
  generations: z.array(z.object({ operation: operationSchema, state: z.string(), count })),
  /** credits bought with Stars */
  sold: credits,
  /** credits charged for results, less refunds */
  spent: credits,
  /** credits put on hold by new requests */
  held: credits,
  /** spent − the service's credits for that day's results */
  margin: credits,
});
export type DayStats = z.infer<typeof dayStatsSchema>;
export const statsResponse = z.object({ days: z.array(dayStatsSchema), today: todayStatsSchema });
export type StatsResponse = z.infer<typeof statsResponse>;

export const broadcastSchema = z.object({
  id: z.string(),
  createdAt: isoDate,
  state: z.string(),
  text: z.string(),
  counts: z.object({
    pending: count,
    sending: count,
    sent: count,
    blocked: count,
    failed: count,
    unconfirmed: count,
    total: count,
  }),
});
export type BroadcastSummary = z.infer<typeof broadcastSchema>;
export const broadcastsResponse = z.object({ items: z.array(broadcastSchema) });
export type BroadcastsResponse = z.infer<typeof broadcastsResponse>;
