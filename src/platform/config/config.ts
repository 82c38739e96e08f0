import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { type ConfiguredDatabase, databaseTarget, poolSizeFor } from "../db/database-target";
import { maxRuleLength, ruleOf } from "../lib/refused-prompts";
import { type CreditPack, creditPacksSetting } from "./credit-packs";
import { type Plan, plansSetting } from "./plans";

/**
 * The whole environment, validated at once. A broken environment yields one
 * error listing every problem; secret values are never part of a message.
 */

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const bool = z.preprocess((v) => {
  if (v === undefined || v === "") return undefined;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(s)) return true;
    if (["0", "false", "no", "off"].includes(s)) return false;
  }
  return v;
}, z.boolean({ error: "must be true/false (or 1/0)" }).optional());

const url = (what: string) =>
  z.preprocess(emptyToUndefined, z.url({ error: `must be a URL (${what})` }).optional());

const positiveInt = (def: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0).default(def),
  );

const secret = (minLength: number) =>
  z.preprocess(
    emptyToUndefined,
    z.string().min(minLength, `must be at least ${minLength} characters long`).optional(),
  );

const telegramToken = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(
      /^\d{5,}:[A-Za-z0-9_-]{20,}$/,
      "does not look like a bot token from @BotFather (<digits>:<secret>)",
    )
    .optional(),
);

const adminIds = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/[,\s]+/).filter(Boolean) : (v ?? [])),
  z.array(
    z
      .string()
      .regex(/^\d{1,15}$/, "is not a numeric Telegram user id")
      .transform(Number),
  ),
);

/** REFUSED_PROMPTS: comma-separated words and patterns (refused-prompts.ts says what a rule is) */
const refusedPrompts = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((r) => r.trim())
          .filter(Boolean)
      : (v ?? []),
  z.array(
    z.string().refine((r) => ruleOf(r) !== undefined, {
      message: `each rule is up to ${maxRuleLength} characters of words (letters, digits, and * for any letters)`,
    }),
  ),
);

export const envSchema = z.object({
  SANDBOX: bool,
  ROLE: z.enum(["all", "web", "worker"], { error: "must be one of all, web, worker" }).default("all"),
  BOT_TOKEN: telegramToken,
  TELEGRAM_API_ROOT: url("Telegram Bot API root").default("https://api.telegram.org"),
  /** the Bot API server is a local one (`telegram-bot-api --local`): files up to 2,000 MB, read from its disk */
  TELEGRAM_LOCAL_FILES: bool,
  BOT_MODE: z.enum(["polling", "webhook"], { error: "must be polling or webhook" }).default("polling"),
  PUBLIC_URL: url("where the service and Telegram reach this server, e.g. https://bot.example.com"),
  TELEGRAM_WEBHOOK_SECRET: secret(16),
  MEDIA_WEBHOOK_SECRET: secret(16),
  MEDIA_WEBHOOK_SIGNING_SECRET: secret(8),
  SIGNING_SECRET: secret(32),
  /** basic-auth password (user `admin`) of the queue dashboard at /admin/queues; unset: no dashboard */
  ADMIN_DASHBOARD_PASSWORD: secret(12),
  MEDIA_API_URL: url("media service base URL"),
  MEDIA_API_KEY: secret(1),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .default("redis://127.0.0.1:6379"),
  ),
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().min(1).default("msb")),
  ADMIN_IDS: adminIds,
  /** inline mode: a chat the bot may post to, where results are uploaded to get a file_id (a group or channel id) */
  INLINE_STORAGE_CHAT_ID: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a Telegram chat id (a whole number, e.g. -1001234567890)" })
      .int("must be a Telegram chat id (a whole number, e.g. -1001234567890)")
      .optional(),
  ),
  WELCOME_CREDITS: positiveInt(20),
  /** the credit packs sold for Telegram Stars (JSON) */
  CREDIT_PACKS: creditPacksSetting,
  /** the monthly plans /plans offers as Stars subscriptions (JSON) */
  PLANS: plansSetting,
  /** words and patterns no prompt may use (admins add more with /moderation) */
  REFUSED_PROMPTS: refusedPrompts,
  /** the operator's privacy policy, as /privacy shows it; unset: the bot's own (what it keeps, how long) */
  PRIVACY_POLICY: z.preprocess(
    emptyToUndefined,
    z.string().trim().max(3_500, "is longer than 3,500 characters (a Telegram message is 4,096)").optional(),
  ),
  /** credits to each side of an invite at the invited user's first purchase; 0: no bonus */
  REFERRAL_BONUS: positiveInt(10),
  /** days our copies of results (and the links to them) are kept */
  MEDIA_RETENTION_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of days" })
      .int("must be a whole number of days")
      .min(1, "must be at least 1 day")
      .default(7),
  ),
  /** the longest file dubbed (in parts of the service's 5 minutes), in minutes */
  DUB_MAX_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of minutes" })
      .int("must be a whole number of minutes")
      .min(5, "must be at least 5 (the service's own limit per task)")
      .max(600, "must be at most 600")
      .default(60),
  ),
  /** parts of one dub the service works on at once */
  DUB_PARTS_AT_ONCE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(20, "must be at most 20")
      .default(3),
  ),
  /** the largest dubbing source (a link, or an upload through a local Bot API server), in MB */
  DUB_SOURCE_MAX_MB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of megabytes" })
      .int("must be a whole number of megabytes")
      .min(1, "must be at least 1")
      .max(2000, "must be at most 2000 (the local Bot API server's limit)")
      .default(2000),
  ),
  /** Telegram sends per second across all workers, results and broadcasts together (results first) */
  TELEGRAM_SENDS_PER_SECOND: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of messages per second" })
      .int("must be a whole number of messages per second")
      .min(1, "must be at least 1")
      .max(1000, "must be at most 1000 (Telegram's paid broadcast ceiling)")
      .default(25),
  ),
  /** requests one group may send the bot per window, all members together (besides each member's own limit) */
  GROUP_RATE_LIMIT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of updates" })
      .int("must be a whole number of updates")
      .min(1, "must be at least 1")
      .default(30),
  ),
  GROUP_RATE_WINDOW_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .default(60),
  ),
  PRICES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  /** where outputs and kept inputs live: a directory under DATA_DIR, or an S3-compatible bucket */
  MEDIA_STORE: z.preprocess(
    emptyToUndefined,
    z.enum(["local", "s3"], { error: "must be local or s3" }).default("local"),
  ),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_ENDPOINT: url("the S3-compatible store's address; empty for AWS S3"),
  S3_PUBLIC_ENDPOINT: url("the address the media service and phones reach the bucket at"),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: bool,
  /** Postgres connections per process; by role when unset (see `poolSizeFor`) */
  DATABASE_POOL_SIZE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(100, "must be at most 100")
      .optional(),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(8080),
  ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  sandbox: boolean;
  role: "all" | "web" | "worker";
  telegram: {
    token: string | undefined;
    apiRoot: string;
    mode: "polling" | "webhook";
    webhookSecret: string | undefined;
    /** a local Bot API server: uploads up to 2,000 MB, and getFile gives a path on its disk */
    localFiles: boolean;
  };
  /** dubbing of files longer than the service's 5 minutes, in parts */
  dub: { maxMinutes: number; partsAtOnce: number; sourceMaxBytes: number };
  publicUrl: string;
  /** the Mini App's address (`${PUBLIC_URL}/app/`): only with PUBLIC_URL set and a bot token, else no Mini App */
  miniAppUrl: string | undefined;
  media: {
    /** undefined in sandbox mode without a key: the built-in simulator is used */
    baseUrl: string | undefined;
    apiKey: string | undefined;
    webhookSecret: string;
    signingSecret: string | undefined;
    useSimulator: boolean;
  };
  signingSecret: string;
  /** days stored results and their download links live */
  mediaRetentionDays: number;
  /** the one global Telegram send limit (messages/s) shared by deliveries and broadcasts */
  telegramSendsPerSecond: number;
  /** updates one group may send per window, all its members together */
  groupRateLimit: { limit: number; windowMs: number };
  /** the queue dashboard's basic-auth password; undefined: the dashboard is off */
  dashboardPassword: string | undefined;
  database: ConfiguredDatabase;
  redis: { url: string; prefix: string };
  adminIds: number[];
  /** inline mode: where results are uploaded for a file_id; undefined: the user's private chat */
  inlineStorageChatId: number | undefined;
  welcomeCredits: number;
  /** the credit packs /buy offers */
  creditPacks: CreditPack[];
  /** the monthly plans /plans offers */
  plans: Plan[];
  /** the operator's refused words and patterns */
  refusedPrompts: string[];
  /** the operator's privacy policy; undefined: the bot's own words */
  privacyPolicy: string | undefined;
  /** credits to the inviter and the invited at the invited user's first purchase; 0 disables */
  referralBonus: number;
  pricesFile: string | undefined;
  dataDir: string;
  /** the bucket when MEDIA_STORE=s3; undefined: the local directory */
  bucket: BucketSettings | undefined;
  http: { host: string; port: number };
  logLevel: Env["LOG_LEVEL"];
}

/** An S3-compatible bucket (MEDIA_STORE=s3): AWS S3, R2, MinIO, ... */
export interface BucketSettings {
  bucket: string;
  /** undefined for AWS S3 */
  endpoint: string | undefined;
  /** where the service and phones reach the bucket, when not at `endpoint`: links are signed for it */
  publicEndpoint: string | undefined;
  region: string;
  /** both undefined: the SDK's own credentials (an instance role, AWS_* variables) */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The configuration is not valid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
        problems.map((p) => `  - ${p}`).join("\n") +
        "\nSet these in the environment or in .env (see docs/configuration.md).",
    );
    this.name = "ConfigError";
  }
}

/** Reads KEY=VALUE lines; the real environment wins over the file. */
function readDotEnv(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!m || line.trim().startsWith("#")) continue;
    let value = m[2] ?? "";
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    out[m[1]!] = value;
  }
  return out;
}

/** Derives a stable per-installation secret for sandbox mode only. */
function sandboxSecret(purpose: string): string {
  return `sandbox-${purpose}-not-for-production-use-0000`;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [name, index] = issue.path;
      const where =
        typeof index === "number" ? `${String(name)} (item ${index + 1})` : String(name ?? "(environment)");
      problems.push(`${where}: ${issue.message}`);
    }
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const sandbox = e.SANDBOX === true;

  if (!sandbox) {
    if (!e.BOT_TOKEN && !e.MEDIA_API_KEY && !e.DATABASE_URL) {
      problems.push(
        "nothing is configured: set SANDBOX=1 to try the bot with embedded defaults, or configure production (BOT_TOKEN, MEDIA_API_URL, MEDIA_API_KEY, DATABASE_URL, ...)",
      );
    } else {
      if (!e.BOT_TOKEN) problems.push("BOT_TOKEN: required (get one from @BotFather)");
      if (!e.MEDIA_API_KEY)
        problems.push(
          "MEDIA_API_KEY: required in production; without it the bot would run against the built-in simulator, which only SANDBOX=1 allows",
        );
      if (!e.MEDIA_API_URL)
        problems.push("MEDIA_API_URL: required in production (the media service base URL)");
      if (!e.DATABASE_URL)
        problems.push("DATABASE_URL: required in production (embedded PGlite is for SANDBOX=1 only)");
      if (!e.PUBLIC_URL)
        problems.push(
          "PUBLIC_URL: required in production (the service downloads inputs and posts webhooks there)",
        );
      if (!e.SIGNING_SECRET) problems.push("SIGNING_SECRET: required in production (32+ random characters)");
      if (!e.MEDIA_WEBHOOK_SECRET)
        problems.push(
          "MEDIA_WEBHOOK_SECRET: required in production (16+ random characters, part of the webhook URL)",
        );
    }
  }
  if (e.BOT_MODE === "webhook") {
    if (!e.PUBLIC_URL) problems.push("PUBLIC_URL: required when BOT_MODE=webhook");
    if (!e.TELEGRAM_WEBHOOK_SECRET) problems.push("TELEGRAM_WEBHOOK_SECRET: required when BOT_MODE=webhook");
  }
  if (e.MEDIA_API_KEY && !e.MEDIA_API_URL && !problems.some((p) => p.startsWith("MEDIA_API_URL"))) {
    problems.push("MEDIA_API_URL: required when MEDIA_API_KEY is set");
  }
  if (e.MEDIA_STORE === "s3" && !e.S3_BUCKET) problems.push("S3_BUCKET: required when MEDIA_STORE=s3");
  if (e.MEDIA_STORE === "s3" && Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    problems.push(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither (the SDK's own credentials)",
    );
  if (problems.length > 0) throw new ConfigError(problems);

  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, "");
  return {
    sandbox,
    role: e.ROLE,
    telegram: {
      token: e.BOT_TOKEN,
      apiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ""),
      mode: e.BOT_MODE,
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
      localFiles: e.TELEGRAM_LOCAL_FILES === true,
    },
    dub: {
      maxMinutes: e.DUB_MAX_MINUTES,
      partsAtOnce: e.DUB_PARTS_AT_ONCE,
      sourceMaxBytes: e.DUB_SOURCE_MAX_MB * 1000 * 1000,
    },
    publicUrl,
    miniAppUrl: e.PUBLIC_URL && e.BOT_TOKEN ? `${publicUrl}/app/` : undefined,
    media: {
      baseUrl: e.MEDIA_API_URL?.replace(/\/+$/, ""),
      apiKey: e.MEDIA_API_KEY,
      webhookSecret: e.MEDIA_WEBHOOK_SECRET ?? sandboxSecret("media-webhook"),
      signingSecret: e.MEDIA_WEBHOOK_SIGNING_SECRET,
      useSimulator: !e.MEDIA_API_KEY,
    },
    signingSecret: e.SIGNING_SECRET ?? sandboxSecret("signing"),
    dashboardPassword: e.ADMIN_DASHBOARD_PASSWORD,
    database: databaseTarget(e.DATABASE_URL, e.DATA_DIR, e.DATABASE_POOL_SIZE ?? poolSizeFor(e.ROLE)),
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    adminIds: e.ADMIN_IDS,
    inlineStorageChatId: e.INLINE_STORAGE_CHAT_ID,
    welcomeCredits: e.WELCOME_CREDITS,
    creditPacks: e.CREDIT_PACKS,
    plans: e.PLANS,
    refusedPrompts: e.REFUSED_PROMPTS,
    privacyPolicy: e.PRIVACY_POLICY,
    referralBonus: e.REFERRAL_BONUS,
    mediaRetentionDays: e.MEDIA_RETENTION_DAYS,
    telegramSendsPerSecond: e.TELEGRAM_SENDS_PER_SECOND,
    groupRateLimit: { limit: e.GROUP_RATE_LIMIT, windowMs: e.GROUP_RATE_WINDOW_SECONDS * 1000 },
    pricesFile: e.PRICES_FILE,
    dataDir: e.DATA_DIR,
    bucket:
      e.MEDIA_STORE === "s3" && e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            publicEndpoint: e.S3_PUBLIC_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === true,
          }
        : undefined,
    http: { host: e.HOST, port },
    logLevel: e.LOG_LEVEL,
  };
}

/** The environment merged with an optional .env file (the real environment wins). */
export function environment(dotEnvPath = ".env"): Record<string, string | undefined> {
  return { ...readDotEnv(dotEnvPath), ...process.env };
}
