import { describe, expect, test } from "vitest";
import { signFileToken, signGid, verifyFileToken, verifyGid } from "../../src/storage/signed-tokens";

const secret = "unit-test-secret-0123456789abcdef0123";

describe("signed file tokens", () => {
  const now = 1_800_000_000_000;
  const token = signFileToken(secret, { k: "tg", f: "AgACAgIAAxk", e: now / 1000 + 60 });

  test("a fresh token verifies and carries its payload", () => {
    expect(verifyFileToken(secret, token, now)).toEqual({
      ok: true,
      payload: { k: "tg", f: "AgACAgIAAxk", e: now / 1000 + 60 },
    });
  });

  test("an expired token is refused", () => {
    expect(verifyFileToken(secret, token, now + 61_000)).toEqual({ ok: false, reason: "expired" });
  });

  test("a token signed with another secret, or altered, is refused", () => {
    expect(verifyFileToken("another-secret-0123456789abcdef0123", token, now)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    const [body, sig] = token.split(".");
    const altered = Buffer.from(
      JSON.stringify({ k: "tg", f: "someone-elses-file", e: now / 1000 + 60 }),
    ).toString("base64url");
    expect(verifyFileToken(secret, `${altered}.${sig}`, now)).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyFileToken(secret, `${body}`, now)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyFileToken(secret, `${body}.${sig}.x`, now)).toEqual({ ok: false, reason: "malformed" });
  });

  test("the URL token never contains the Telegram file URL or a bot token", () => {
    expect(token).not.toMatch(/\/file\/bot|\d{5,}:[A-Za-z0-9_-]{20,}/);
  });
});

describe("gid signatures in task metadata", () => {
  test("verify only for the gid they were made for", () => {
    const sig = signGid(secret, "5f0c0a56-1111-4a4a-9a9a-000000000001");
    expect(verifyGid(secret, "5f0c0a56-1111-4a4a-9a9a-000000000001", sig)).toBe(true);
    expect(verifyGid(secret, "5f0c0a56-1111-4a4a-9a9a-000000000002", sig)).toBe(false);
    expect(verifyGid(secret, "5f0c0a56-1111-4a4a-9a9a-000000000001", "short")).toBe(false);
    expect(verifyGid(secret, "5f0c0a56-1111-4a4a-9a9a-000000000001", 42)).toBe(false);
  });
});
