import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/platform/config/config";
import {
  signFileToken,
  signGid,
  verifyFileToken,
  verifyGid,
} from "../../../src/platform/storage/signed-tokens";
import { signedLinks } from "../../../src/runtime/services";
import { defaultPolicy } from "../../../src/runtime/settings";

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

  test("a token's body is readable by whoever holds it: what is signed comes out verbatim, so a URL with a bot token would leak", () => {
    const botToken = "123456789:AAE-unit-test-bot-token-0123456789ab";
    const fromId = signFileToken(secret, { k: "tg", f: "AgACAgIAAxk", e: now / 1000 + 60 });
    expect(JSON.parse(Buffer.from(fromId.split(".")[0]!, "base64url").toString())).toEqual({
      k: "tg",
      f: "AgACAgIAAxk",
      e: now / 1000 + 60,
    });
    const fileUrl = `https://api.telegram.org/file/bot${botToken}/photos/file_1.jpg`;
    const fromUrl = signFileToken(secret, { k: "tg", f: fileUrl, e: now / 1000 + 60 });
    expect(Buffer.from(fromUrl.split(".")[0]!, "base64url").toString()).toContain(botToken);
  });

  test("the input URL sent to the service for a Telegram upload carries its file_id, never the bot token or /file/bot", () => {
    const botToken = "123456789:AAE-unit-test-bot-token-0123456789ab";
    const config = loadConfig({
      BOT_TOKEN: botToken,
      MEDIA_API_URL: "https://media.example.com",
      MEDIA_API_KEY: "sk-unit-test",
      DATABASE_URL: "postgres://u:p@db:5432/bot",
      PUBLIC_URL: "https://bot.example.com",
      SIGNING_SECRET: secret,
      MEDIA_WEBHOOK_SECRET: "webhook-secret-0123",
    });
    const links = signedLinks(config, () => now, defaultPolicy);
    const url = links.telegramFileUrl("AgACAgIAAxk-unit");

    expect(url.startsWith("https://bot.example.com/files/")).toBe(true);
    const token = url.slice("https://bot.example.com/files/".length);
    const body = Buffer.from(token.split(".")[0]!, "base64url").toString();
    expect(JSON.parse(body)).toEqual({
      k: "tg",
      f: "AgACAgIAAxk-unit",
      e: now / 1000 + defaultPolicy.inputLinkSeconds,
    });
    expect(verifyFileToken(secret, token, now)).toMatchObject({
      ok: true,
      payload: { f: "AgACAgIAAxk-unit" },
    });
    for (const text of [url, body]) {
      expect(text).not.toContain("/file/bot");
      expect(text).not.toContain(botToken);
    }
    // a link to a result too big for Telegram lives as long as our copy of it
    const output = links.outputUrl("2026/11/27/g/0.mp4", 3).slice("https://bot.example.com/files/".length);
    expect(verifyFileToken(secret, output, now)).toEqual({
      ok: true,
      payload: { k: "out", p: "2026/11/27/g/0.mp4", e: now / 1000 + 3 * 24 * 3600 },
    });
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
