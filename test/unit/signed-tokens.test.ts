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

  test("a token carries its payload and a MAC, nothing more: a file_id in, never a file URL or a token", () => {
    // what a careless caller might hand over: the Telegram download URL, bot token inside
    const botToken = "123456789:AAE-unit-test-bot-token-0123456789ab";
    const fileUrl = `https://api.telegram.org/file/bot${botToken}/photos/file_1.jpg`;
    const fromId = signFileToken(secret, { k: "tg", f: "AgACAgIAAxk", e: now / 1000 + 60 });
    const [body] = fromId.split(".");
    expect(JSON.parse(Buffer.from(body!, "base64url").toString())).toEqual({
      k: "tg",
      f: "AgACAgIAAxk",
      e: now / 1000 + 60,
    });
    // the token is readable by anyone who has it: what goes in comes out, so only a file_id may go in
    const fromUrl = signFileToken(secret, { k: "tg", f: fileUrl, e: now / 1000 + 60 });
    const decoded = Buffer.from(fromUrl.split(".")[0]!, "base64url").toString();
    expect(decoded).toContain(botToken);
    expect(fromId).not.toContain(Buffer.from(botToken).toString("base64url").slice(0, 12));
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

  test("a signature of 32 non-ASCII characters (more than 32 bytes) is refused, not thrown on", () => {
    const gid = "5f0c0a56-1111-4a4a-9a9a-000000000001";
    for (const sig of ["é".repeat(32), "€".repeat(32), "😀".repeat(16), "\u0000".repeat(32)]) {
      expect(() => verifyGid(secret, gid, sig)).not.toThrow();
      expect(verifyGid(secret, gid, sig)).toBe(false);
    }
  });
});
