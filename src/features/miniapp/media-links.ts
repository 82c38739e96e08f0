import { type FilePayload, signedFileUrl } from "../../platform/storage/signed-tokens";
import type { StoredFile } from "../../platform/storage/stored-file";
import type { MediaItem } from "./contract";

const day = 24 * 3600;

export interface LinkSigner {
  publicUrl: string;
  signingSecret: string;
  now(): number;
}

/**
 * Signed links of the file proxy (/files/<token>) to a gallery's files. They
 * expire at the end of tomorrow (UTC), not a fixed time after each request:
 * the same file gets the same link all day, so the phone's cache keeps it.
 */
export function galleryLinks(signer: LinkSigner) {
  const link = (payload: FilePayload) => signedFileUrl(signer.publicUrl, signer.signingSecret, payload);
  const expiry = () => (Math.floor(signer.now() / 1000 / day) + 2) * day;
  return {
    /** one of our stored outputs */
    output: (path: string) => link({ k: "out", p: path, e: expiry() }),
    /** a Telegram file (an upload shown before it is used) */
    telegram: (fileId: string) => link({ k: "tg", f: fileId, e: expiry() }),
  };
}
export type GalleryLinks = ReturnType<typeof galleryLinks>;

function kindOf(f: StoredFile): MediaItem["kind"] {
  if (f.mimeType.startsWith("image/")) return "photo";
  if (f.mimeType.startsWith("video/")) return "video";
  if (f.mimeType.startsWith("audio/")) return "audio";
  return "document";
}

/** The media of a result: each stored output by its signed link; a video's poster is the result's first picture, if any. */
export function mediaOf(files: StoredFile[], links: GalleryLinks): MediaItem[] {
  const items = files.map((f) => ({ kind: kindOf(f), url: links.output(f.path) }));
  const poster = items.find((i) => i.kind === "photo")?.url;
  return items.map((i) => (i.kind === "video" && poster ? { ...i, poster } : i));
}
