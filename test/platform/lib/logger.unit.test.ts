import { HttpError } from "grammy";
import { describe, expect, test } from "vitest";
import { createLogger } from "../../../src/platform/lib/logger";

const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger("debug", { write: (l: string) => void lines.push(l) }, secrets);
  return { logger, lines };
}

describe("logs are scrubbed of secrets wherever they hide", () => {
  test("a failed Telegram call's error (its URL holds the token) is logged without the token", () => {
    const { logger, lines } = capture();
    const inner = new Error(
      `request to https://api.telegram.org/bot${token}/getMe failed, reason: ECONNRESET`,
    );
    logger.error({ err: new HttpError("Network request for 'getMe' failed!", inner) }, "start-up failed");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(token.split(":")[1]!);
    expect(lines[0]).toContain("ECONNRESET");
  });

  test("a file URL, a bearer header and configured secrets in any field are replaced", () => {
    const { logger, lines } = capture(["sk-live-very-secret-key"]);
    logger.info(
      {
        url: `https://api.telegram.org/file/bot${token}/photos/file_1.jpg`,
        headers: { other: "Bearer abc.def.ghi" },
        nested: { note: "key was sk-live-very-secret-key" },
      },
      "debugging",
    );
    const line = lines[0]!;
    expect(line).not.toContain(token);
    expect(line).not.toContain("abc.def.ghi");
    expect(line).not.toContain("sk-live-very-secret-key");
  });
});
