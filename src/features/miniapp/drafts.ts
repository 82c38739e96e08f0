import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "../../platform/lib/same-secret";

/**
 * A draft of the composer: what one Confirm spends at most once, as a chat
 * panel is. The server issues it (GET /composer, POST /drafts) as
 * `<nonce>.<HMAC of the user and the nonce>`, so a page cannot mint its own and
 * one user's draft is no other's; nothing is stored. POST /generate makes the
 * draft's generation under the draft's request key: every further press with
 * the same draft finds that generation and holds nothing more.
 */

const nonceBytes = 16;
const nonceShape = /^[A-Za-z0-9_-]{22}$/;

function mac(secret: string, userId: number, nonce: string): string {
  return createHmac("sha256", secret).update(`draft:${userId}:${nonce}`).digest("base64url");
}

/** A new draft of `userId`. */
export function issueDraft(secret: string, userId: number): string {
  const nonce = randomBytes(nonceBytes).toString("base64url");
  return `${nonce}.${mac(secret, userId, nonce)}`;
}

/**
 * The generation request key of a draft issued to `userId`; undefined for a
 * draft that was not (forged, another user's, or signed with another secret).
 */
export function draftRequestKey(secret: string, userId: number, draft: string): string | undefined {
  const [nonce, sig, extra] = draft.split(".");
  if (!nonce || !sig || extra !== undefined || !nonceShape.test(nonce)) return undefined;
  if (!sameSecret(sig, mac(secret, userId, nonce))) return undefined;
  return `app-draft-${userId}-${nonce}`;
}
