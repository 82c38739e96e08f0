import { createHmac } from "node:crypto";
import { sameSecret } from "../lib/same-secret";

/**
 * Webhook signatures in the Standard Webhooks style: HMAC-SHA256 over
 * `${id}.${timestamp}.${body}`, sent as `webhook-signature: v1,<base64>` with
 * `webhook-id` and `webhook-timestamp` (seconds). The service documents no
 * scheme; see ASSUMPTIONS.md.
 */

/** A `whsec_` secret is base64 after the prefix (Standard Webhooks); any other secret is used as UTF-8. */
function signingKey(secret: string): Buffer {
  return secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret, "utf8");
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", signingKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest("base64");
  return `v1,${mac}`;
}

export function webhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signWebhook(secret, id, timestampSeconds, body),
  };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Verifies a delivery. Accepts the Standard Webhooks headers (also with the
 * `svix-` prefix) and, as a fallback for simpler providers, a bare HMAC-SHA256
 * of the body in hex or base64 (`x-signature`, `x-webhook-signature`,
 * `x-hub-signature-256: sha256=…`). Every scheme needs the secret.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  headers: Record<string, string | undefined>,
  opts: { toleranceSeconds: number; nowMs: number },
): SignatureCheck {
  const h = (name: string) => headers[name] ?? headers[name.toLowerCase()];
  const key = signingKey(secret);
  const id = h("webhook-id") ?? h("svix-id");
  const timestamp = h("webhook-timestamp") ?? h("svix-timestamp");
  const signature = h("webhook-signature") ?? h("svix-signature");
  if (signature !== undefined) {
    if (!id || !timestamp) return { ok: false, reason: "signature without webhook-id or webhook-timestamp" };
    const seconds = Number(timestamp);
    if (!Number.isInteger(seconds)) return { ok: false, reason: "webhook-timestamp is not a number" };
    if (Math.abs(opts.nowMs / 1000 - seconds) > opts.toleranceSeconds) {
      return { ok: false, reason: "webhook-timestamp outside the tolerance" };
    }
    const expected = createHmac("sha256", key).update(`${id}.${seconds}.${rawBody}`).digest();
    // several space-separated "v1,<sig>" entries may be sent while keys rotate
    for (const entry of signature.split(" ")) {
      const [version, value] = entry.split(",", 2);
      if (version === "v1" && value && sameSecret(Buffer.from(value, "base64"), expected))
        return { ok: true };
    }
    return { ok: false, reason: "signature does not match" };
  }
  const bare = h("x-webhook-signature") ?? h("x-signature") ?? h("x-hub-signature-256");
  if (bare !== undefined) {
    const value = bare.replace(/^sha256=/, "").trim();
    const expected = createHmac("sha256", key).update(rawBody).digest();
    const given = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
    return sameSecret(given, expected) ? { ok: true } : { ok: false, reason: "signature does not match" };
  }
  return { ok: false, reason: "no signature header" };
}
