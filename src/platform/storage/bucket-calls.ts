import {
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { BucketSettings } from "../config/config";
import { multipartPut } from "./multipart-put";

export function clientOf(s: BucketSettings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: s.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    // the checksums the SDK adds by default are not taken by every S3-compatible store (R2, MinIO, older servers)
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // a store that stops answering fails the call (and the job retries) rather than hanging it
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
  });
}

export const notFound = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === "NotFound" || err.name === "NoSuchKey");

/** The bucket-wide calls the store is made of: listing, aborting unfinished uploads, writing. */
export function bucketCalls(client: S3Client, Bucket: string) {
  /** every key under `prefix`, page by page */
  async function* keysUnder(prefix: string, delimiter?: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket,
          Prefix: prefix,
          ...(delimiter ? { Delimiter: delimiter } : {}),
          ...(ContinuationToken ? { ContinuationToken } : {}),
        }),
      );
      yield page;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  /** Uploads a crash cut off: aborted, so none is left holding its parts. */
  async function abortUnfinished(prefix: string, startedBefore?: Date): Promise<number> {
    let aborted = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const listed = await client.send(
        new ListMultipartUploadsCommand({ Bucket, Prefix: prefix, ...markers }),
      );
      for (const u of listed.Uploads ?? []) {
        if (!u.Key || !u.UploadId) continue;
        if (startedBefore && u.Initiated && u.Initiated >= startedBefore) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
        aborted++;
      }
      if (!listed.IsTruncated || !listed.NextKeyMarker) return aborted;
      markers = { KeyMarker: listed.NextKeyMarker, UploadIdMarker: listed.NextUploadIdMarker };
    }
  }

  /**
   * Streams `body` into `key`, a part at a time; an upload of the same key a
   * crash left unfinished is aborted first. A failure aborts this one.
   */
  async function put(
    key: string,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    contentType: string,
  ): Promise<void> {
    // a store that lists no uploads (or a key not allowed to) still takes the write: retention and lifecycle rules remain
    await abortUnfinished(key).catch(() => undefined);
    await multipartPut(client, { Bucket, Key: key, ContentType: contentType }, body);
  }

  return { keysUnder, abortUnfinished, put };
}
