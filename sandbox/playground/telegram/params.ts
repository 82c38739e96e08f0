import type { z } from "zod";
import { badRequest } from "./errors";
import type { UploadedFile } from "./multipart";

export type FileInput =
  | { kind: "upload"; file: UploadedFile }
  | { kind: "id"; fileId: string }
  | { kind: "url"; url: string };

/** A file as the call log shows it: never the bytes. */
export interface FileSummary {
  name: string;
  size: number;
  mime: string;
}

/**
 * The parameters of one call, whichever way they came (JSON, query string,
 * urlencoded or multipart). Outside JSON every value is a string, and Telegram
 * reads "123" as a number and a JSON string as an object; so do these getters.
 */
export class Params {
  constructor(
    readonly raw: Record<string, unknown>,
    readonly files: Map<string, UploadedFile> = new Map(),
  ) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  string(key: string): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    throw badRequest(`field "${key}" must be of type String`);
  }

  int(key: string): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null || v === "") return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : Number.NaN;
    if (!Number.isInteger(n)) throw badRequest(`field "${key}" must be of type Integer`);
    return n;
  }

  bool(key: string): boolean | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "boolean") return v;
    if (v === "true" || v === "1" || v === 1) return true;
    if (v === "false" || v === "0" || v === 0) return false;
    throw badRequest(`field "${key}" must be of type Boolean`);
  }

  /** An object-valued parameter, checked with `schema`. */
  json<T>(key: string, schema: z.ZodType<T>, what = key): T | undefined {
    let v = this.raw[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v === "string") {
      try {
        v = JSON.parse(v);
      } catch {
        throw badRequest(`can't parse ${what} JSON object`);
      }
    }
    const parsed = schema.safeParse(v);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join(".") ?? "";
      throw badRequest(`can't parse ${what}: ${path ? `${path}: ` : ""}${issue?.message ?? "invalid"}`);
    }
    return parsed.data;
  }

  /** chat_id: an integer id or an @username. */
  chatId(key = "chat_id"): number | string {
    const v = this.raw[key];
    if (v === undefined || v === null || v === "") throw badRequest(`${key} is empty`);
    if (typeof v === "number") return v;
    if (typeof v === "string") return /^-?\d+$/.test(v) ? Number(v) : v;
    throw badRequest("chat not found");
  }

  /** A file parameter: an attach:// upload, a part of its own, a file_id or a URL. */
  file(key: string): FileInput | undefined {
    const direct = this.files.get(key);
    if (direct) return { kind: "upload", file: direct };
    const v = this.raw[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v !== "string")
      throw badRequest(`wrong remote file identifier specified: can't unserialize it`);
    return fileInput(v, this.files);
  }
}

export function fileInput(value: string, files: Map<string, UploadedFile>): FileInput {
  if (value.startsWith("attach://")) {
    const file = files.get(value.slice("attach://".length));
    if (!file) throw badRequest(`wrong HTTP URL specified`);
    return { kind: "upload", file };
  }
  if (/^https?:\/\//i.test(value)) return { kind: "url", url: value };
  return { kind: "id", fileId: value };
}

const integerFields = new Set([
  "chat_id",
  "from_chat_id",
  "user_id",
  "message_id",
  "message_thread_id",
  "reply_to_message_id",
  "duration",
  "width",
  "height",
  "offset",
  "limit",
  "timeout",
  "cache_time",
  "max_connections",
]);

const booleanFields = new Set([
  "disable_notification",
  "protect_content",
  "allow_paid_broadcast",
  "has_spoiler",
  "show_caption_above_media",
  "supports_streaming",
  "disable_content_type_detection",
  "allow_sending_without_reply",
  "drop_pending_updates",
  "show_alert",
  "is_personal",
  "ok",
]);

const jsonFields = new Set([
  "reply_markup",
  "reply_parameters",
  "entities",
  "caption_entities",
  "media",
  "link_preview_options",
  "commands",
  "scope",
  "menu_button",
  "prices",
  "results",
  "allowed_updates",
  "message_ids",
  "button",
]);

/** Outside JSON every value is a string; the log reads them as Telegram does, so tests compare alike. */
function typedField(key: string, value: string): unknown {
  if (integerFields.has(key) && /^-?\d+$/.test(value)) return Number(value);
  if (booleanFields.has(key) && (value === "true" || value === "false")) return value === "true";
  if (jsonFields.has(key)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** The parameters as the call log records them: JSON fields parsed, files summarised. */
export function summarizeParams(params: Params): Record<string, unknown> {
  const summary = (file: UploadedFile): FileSummary => ({
    name: file.name,
    size: file.size,
    mime: file.mime,
  });
  const resolveAttach = (value: unknown): unknown => {
    if (typeof value === "string" && value.startsWith("attach://")) {
      const file = params.files.get(value.slice("attach://".length));
      return file ? summary(file) : value;
    }
    if (Array.isArray(value)) return value.map(resolveAttach);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttach(v)]));
    }
    return value;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params.raw)) {
    out[key] = resolveAttach(typeof value === "string" ? typedField(key, value) : value);
  }
  const referenced = new Set(
    Object.values(params.raw)
      .flatMap((v) => (typeof v === "string" ? [...v.matchAll(/attach:\/\/([\w-]+)/g)].map((m) => m[1]) : []))
      .filter((v): v is string => v !== undefined),
  );
  for (const [name, file] of params.files)
    if (!referenced.has(name) && !(name in out)) out[name] = summary(file);
  return out;
}
