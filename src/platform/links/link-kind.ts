import { dubbingFormats } from "../media-service/catalog";
import { type LinkFailure, LinkStop, readGuardedLink } from "./guarded-fetch";
import {
  durationOf,
  type LinkDuration,
  type LinkProbeOptions,
  linkProbeMaxBytes,
  linkProbeTimeoutMs,
} from "./link-duration";

/**
 * What a link pasted into the chat points at, read from one guarded GET: its
 * content type (or, for a type that says nothing, the name's extension), and
 * for audio or video its length from the same first bytes, as /dub reads it.
 */
export type LinkKind =
  | { kind: "media"; media: "audio" | "video"; duration: LinkDuration }
  | { kind: "image" }
  | { kind: "page" }
  | { kind: "unreachable"; reason: LinkFailure };

export type LinkKindProbe = (url: string) => Promise<LinkKind>;

const imageExtensions = ["jpg", "jpeg", "png", "webp", "gif"];
const videoExtensions = ["mp4", "mov", "webm", "mkv", "m4v"];
/** types that name no kind: the extension decides */
const untyped = new Set(["", "application/octet-stream", "binary/octet-stream"]);

function kindOf(contentType: string, url: string): "audio" | "video" | "image" | "page" {
  if (contentType.startsWith("image/")) return "image";
  if (contentType.startsWith("video/")) return "video";
  if (contentType.startsWith("audio/") || contentType === "application/ogg") return "audio";
  if (!untyped.has(contentType)) return "page";
  const extension = new URL(url).pathname.toLowerCase().split(".").at(-1) ?? "";
  if (imageExtensions.includes(extension)) return "image";
  if (videoExtensions.includes(extension)) return "video";
  return (dubbingFormats as readonly string[]).includes(extension) ? "audio" : "page";
}

export function linkKindProbe(options: LinkProbeOptions = {}): LinkKindProbe {
  const maxBytes = options.maxBytes ?? linkProbeMaxBytes;
  return async (url) => {
    const result = await readGuardedLink(
      url,
      {
        ...options,
        timeoutMs: options.timeoutMs ?? linkProbeTimeoutMs,
        accept: "*/*",
        what: "sent link",
      },
      async (response, control): Promise<LinkKind> => {
        const contentType = response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? "";
        const kind = kindOf(contentType, url);
        if (kind !== "audio" && kind !== "video") return { kind };
        const duration: LinkDuration = await durationOf(response, maxBytes, control).then(
          (seconds) =>
            seconds !== undefined && Number.isFinite(seconds) && seconds > 0
              ? { seconds: Math.round(seconds * 1000) / 1000 }
              : { unknown: "unreadable" },
          (err: unknown) => ({ unknown: err instanceof LinkStop ? err.reason : "unreadable" }),
        );
        return { kind: "media", media: kind, duration };
      },
    );
    return result.ok ? result.value : { kind: "unreachable", reason: result.reason };
  };
}
