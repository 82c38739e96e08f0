import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../../src/platform/config/config";

const token = "123456789:AAH-some-real-looking-secret-value-xyz";
const production = {
  BOT_TOKEN: token,
  MEDIA_API_URL: "https://media.example.com",
  MEDIA_API_KEY: "sk-live-secret-value",
  DATABASE_URL: "postgres://u:p@db:5432/bot",
  PUBLIC_URL: "https://bot.example.com",
  SIGNING_SECRET: "0123456789abcdef0123456789abcdef",
  MEDIA_WEBHOOK_SECRET: "webhook-secret-0123",
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("configuration", () => {
  test("a complete production environment loads", () => {
    const c = loadConfig({ ...production, ADMIN_IDS: "1, 2 3" });
    expect(c.sandbox).toBe(false);
    expect(c.adminIds).toEqual([1, 2, 3]);
    expect(c.database).toEqual({ kind: "postgres", url: production.DATABASE_URL, max: 10 });
    expect(c.media.useSimulator).toBe(false);
  });

  test("Postgres connections per process: 4 for a web process, 10 otherwise, or DATABASE_POOL_SIZE", () => {
    const pool = (env: Record<string, string>) => {
      const d = loadConfig({ ...production, ...env }).database;
      return d.kind === "postgres" ? d.max : undefined;
    };
    expect(pool({ ROLE: "web" })).toBe(4);
    expect(pool({ ROLE: "worker" })).toBe(10);
    expect(pool({})).toBe(10);
    expect(pool({ ROLE: "web", DATABASE_POOL_SIZE: "12" })).toBe(12);
    expect(problems({ ...production, DATABASE_POOL_SIZE: "0" })).toEqual([
      expect.stringMatching(/^DATABASE_POOL_SIZE/),
    ]);
    expect(problems({ ...production, DATABASE_POOL_SIZE: "many" })).toEqual([
      expect.stringMatching(/^DATABASE_POOL_SIZE/),
    ]);
  });

  test("the media store: a directory by default, a bucket with MEDIA_STORE=s3 and what it needs", () => {
    expect(loadConfig(production).bucket).toBeUndefined();
    const bucket = {
      MEDIA_STORE: "s3",
      S3_BUCKET: "media",
      S3_ENDPOINT: "http://minio:9000",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret-value",
      S3_FORCE_PATH_STYLE: "true",
    };
    expect(loadConfig({ ...production, ...bucket }).bucket).toEqual({
      bucket: "media",
      endpoint: "http://minio:9000",
      publicEndpoint: undefined,
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret-value",
      forcePathStyle: true,
    });
    // the bucket's settings mean nothing while the store is local
    expect(loadConfig({ ...production, ...bucket, MEDIA_STORE: "local" }).bucket).toBeUndefined();
    expect(problems({ ...production, MEDIA_STORE: "s3" })).toEqual([
      "S3_BUCKET: required when MEDIA_STORE=s3",
    ]);
    expect(problems({ ...production, MEDIA_STORE: "disk" })).toEqual(["MEDIA_STORE: must be local or s3"]);
    expect(problems({ ...production, ...bucket, S3_SECRET_ACCESS_KEY: "" })).toEqual([
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither (the SDK's own credentials)",
    ]);
    expect(problems({ ...production, ...bucket, S3_ENDPOINT: "minio 9000" })[0]).toMatch(
      /^S3_ENDPOINT: must be a URL/,
    );
    expect(problems({ ...production, ...bucket, S3_SECRET_ACCESS_KEY: "" }).join()).not.toContain(
      "secret-value",
    );
  });

  test("every problem is listed at once", () => {
    const found = problems({
      ...production,
      ADMIN_IDS: "12,abc",
      MEDIA_API_URL: "not a url",
      PORT: "eighty",
    });
    expect(found.some((p) => p.startsWith("ADMIN_IDS (item 2)"))).toBe(true);
    expect(found.some((p) => p.startsWith("MEDIA_API_URL"))).toBe(true);
    expect(found.some((p) => p.startsWith("PORT"))).toBe(true);
  });

  test("a real token without a service key and without sandbox mode is refused", () => {
    const { MEDIA_API_KEY: _k, MEDIA_API_URL: _u, ...rest } = production;
    const found = problems(rest);
    expect(found.some((p) => p.startsWith("MEDIA_API_KEY") && p.includes("SANDBOX=1"))).toBe(true);
  });

  test("the same environment in explicit sandbox mode uses the embedded defaults", () => {
    const c = loadConfig({ BOT_TOKEN: token, SANDBOX: "1" });
    expect(c.sandbox).toBe(true);
    expect(c.media.useSimulator).toBe(true);
    expect(c.database.kind).toBe("pglite");
  });

  test("nothing configured and no sandbox asks for one or the other", () => {
    expect(problems({})).toEqual([expect.stringContaining("SANDBOX=1")]);
  });

  test("a secret's value never appears in a message", () => {
    const found = problems({ ...production, SIGNING_SECRET: "short-secret", BOT_TOKEN: "bad token value" });
    const all = found.join("\n");
    expect(found.length).toBeGreaterThanOrEqual(2);
    expect(all).not.toContain("short-secret");
    expect(all).not.toContain("bad token value");
  });

  test("webhook mode needs its public URL and secret", () => {
    const found = problems({ SANDBOX: "1", BOT_MODE: "webhook" });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PUBLIC_URL/),
        expect.stringMatching(/^TELEGRAM_WEBHOOK_SECRET/),
      ]),
    );
  });
});

describe("start-up with a broken environment", () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      encoding: "utf8",
      timeout: 30_000,
    });

  test("prints every problem and exits non-zero", () => {
    const r = run({ ...production, ADMIN_IDS: "x1", MEDIA_API_URL: "nope", SIGNING_SECRET: "tiny" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("ADMIN_IDS");
    expect(r.stderr).toContain("MEDIA_API_URL");
    expect(r.stderr).toContain("SIGNING_SECRET");
    expect(r.stderr).not.toContain("tiny");
  });

  test("refuses a real token without a service key outside sandbox mode", () => {
    const { MEDIA_API_KEY: _k, ...rest } = production;
    const r = run(rest);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("MEDIA_API_KEY");
    expect(r.stderr).not.toContain(token);
  });
});
