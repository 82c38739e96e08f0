import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string | Uint8Array) => createHash("sha256").update(value).digest();

/**
 * Compares a secret (token, signature, path segment) in constant time whatever
 * the input: both sides are hashed to equal lengths first, so neither a length
 * difference nor multi-byte characters cut the comparison short or throw.
 */
export function sameSecret(given: string | Uint8Array | undefined, expected: string | Uint8Array): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
