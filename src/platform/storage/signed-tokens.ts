import { createHmac } from "node:crypto";
import { z } from "zod";
import { sameSecret } from "../lib/same-secret";

/**
 * Short-lived capabilities in a URL: base64url(JSON payload) + "." + HMAC.
 * Used for the file proxy (the service downloads Telegram uploads through us,
 * never through a URL carrying the bot token) and for links to our outputs.
 */
const filePayload = z.discriminatedUnion("k", [
  /** a Telegram file, streamed through getFile */
  z.object({ k: z.literal("tg"), f: z.string().min(1), e: z.number().int() }),
  /** one of our stored files, by its path relative to the storage root */
  z.object({ k: z.literal("out"), p: z.string().min(1), e: z.number().int() }),
  /** the input we downloaded and kept for a generation (a dubbing link's file), by generation id */
  z.object({ k: z.literal("in"), g: z.string().uuid(), e: z.number().int() }),
]);
export type FilePayload = z.infer<typeof filePayload>;

function mac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(`file:${body}`).digest("base64url");
}

export function signFileToken(secret: string, payload: FilePayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(secret, body)}`;
}

/** Our link to a file, served by the file proxy: `<publicUrl>/files/<token>`. */
export function signedFileUrl(publicUrl: string, secret: string, payload: FilePayload): string {
  return `${publicUrl}/files/${signFileToken(secret, payload)}`;
}

export type VerifyResult =
  | { ok: true; payload: FilePayload }
  | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

export function verifyFileToken(secret: string, token: string, nowMs: number): VerifyResult {
  const [body, sig, extra] = token.split(".");
  if (!body || !sig || extra !== undefined) return { ok: false, reason: "malformed" };
  if (!sameSecret(sig, mac(secret, body))) return { ok: false, reason: "bad_signature" };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const parsed = filePayload.safeParse(json);
  if (!parsed.success) return { ok: false, reason: "malformed" };
  if (parsed.data.e * 1000 < nowMs) return { ok: false, reason: "expired" };
  return { ok: true, payload: parsed.data };
}

/** HMAC of a generation id, carried in task metadata so a webhook cannot name a generation it did not get from us. */
export function signGid(secret: string, gid: string): string {
  return createHmac("sha256", secret).update(`gid:${gid}`).digest("hex").slice(0, 32);
}

/**
 * Compares the signature's bytes in constant time. The length is checked in
 * bytes, not characters: 32 non-ASCII characters are more than 32 bytes, and
 * `timingSafeEqual` throws on buffers of different lengths.
 */
export function verifyGid(secret: string, gid: string, sig: unknown): boolean {
  if (typeof sig !== "string") return false;
  return sameSecret(sig, signGid(secret, gid));
}
