import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { CreateBucketCommand, ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import type { BucketSettings } from "../../src/platform/config/config";

/**
 * The S3-compatible server the tests use (scripts/object-store.ts: s3rver),
 * started by .ci/run like Postgres and Redis; started here when nothing
 * answers, so `npm test` works on a machine that never ran CI.
 */
export const objectStoreUrl = process.env.OBJECT_STORE_URL ?? "http://127.0.0.1:9000";
const keys = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

const answers = () =>
  fetch(objectStoreUrl, { signal: AbortSignal.timeout(1000) }).then(
    () => true,
    () => false,
  );

let ready: Promise<void> | undefined;
function objectStoreUp(): Promise<void> {
  ready ??= (async () => {
    if (await answers()) return;
    const child = spawn(join(process.cwd(), "node_modules/.bin/tsx"), ["scripts/object-store.ts"], {
      env: { ...process.env, OBJECT_STORE_PORT: new URL(objectStoreUrl).port || "9000" },
      detached: true,
      stdio: "ignore",
    });
    child.unref();
    for (let i = 0; i < 100; i++) {
      if (await answers()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no object store answers at ${objectStoreUrl}`);
  })();
  return ready;
}

export function testS3Client(): S3Client {
  return new S3Client({
    endpoint: objectStoreUrl,
    region: "us-east-1",
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    credentials: keys,
  });
}

/** A bucket of the test's own, made now: the settings the bot takes, and its env form for a process. */
export async function freshBucket(): Promise<{ settings: BucketSettings; env: Record<string, string> }> {
  await objectStoreUp();
  const bucket = `msb-test-${randomUUID().slice(0, 8)}`;
  await testS3Client().send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    settings: {
      bucket,
      endpoint: objectStoreUrl,
      publicEndpoint: undefined,
      region: "us-east-1",
      accessKeyId: keys.accessKeyId,
      secretAccessKey: keys.secretAccessKey,
      forcePathStyle: true,
    },
    env: {
      MEDIA_STORE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: objectStoreUrl,
      S3_ACCESS_KEY_ID: keys.accessKeyId,
      S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
  };
}

/** The multipart uploads begun in `bucket` and neither completed nor aborted. */
export async function unfinishedUploads(bucket: string): Promise<string[]> {
  const listed = await testS3Client().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return (listed.Uploads ?? []).map((u) => u.Key ?? "");
}
