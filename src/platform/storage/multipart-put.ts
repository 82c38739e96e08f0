import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";

/** the smallest part S3 takes (but the last) */
export const partBytes = 5 * 1024 * 1024;
/** buffers past which a full part waits for one on its way to be taken: three in all */
const partsInFlight = 2;

/**
 * Streams `body` into `key` a part at a time: each chunk is copied into one of
 * three 5 MiB buffers used over and over (up to three parts on their way, or
 * two and one filling), so an upload of any size holds 15 MiB, where lib-storage's
 * `Upload` makes a new buffer per part and held ~45 MB on a 500 MB output
 * (bench/object-store.ts). A body shorter than a part goes in one PUT. A
 * failure aborts the upload (and, leaving the loop, ends the body's reading);
 * a crash leaves it for the next writer of the key (or retention) to abort.
 */
export async function multipartPut(
  client: S3Client,
  target: { Bucket: string; Key: string; ContentType: string },
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<void> {
  const free: Buffer[] = [];
  const sending = new Set<Promise<void>>();
  const done: { PartNumber: number; ETag: string }[] = [];
  let uploadId: string | undefined;
  let failure: unknown;
  let buffers = 0;

  const take = async (): Promise<Buffer> => {
    while (free.length === 0 && buffers > partsInFlight) await Promise.race(sending);
    if (failure) throw failure;
    const reused = free.pop();
    if (reused) return reused;
    buffers++;
    return Buffer.allocUnsafe(partBytes);
  };

  const send = async (buffer: Buffer, length: number, PartNumber: number) => {
    uploadId ??= (await client.send(new CreateMultipartUploadCommand(target))).UploadId;
    const sent = client
      .send(
        new UploadPartCommand({
          Bucket: target.Bucket,
          Key: target.Key,
          UploadId: uploadId,
          PartNumber,
          Body: buffer.subarray(0, length),
          ContentLength: length,
        }),
      )
      .then(
        (answer) => void done.push({ PartNumber, ETag: answer.ETag ?? "" }),
        (err: unknown) => {
          failure ??= err;
        },
      )
      .finally(() => {
        sending.delete(sent);
        free.push(buffer);
      });
    sending.add(sent);
  };

  let current = await take();
  let filled = 0;
  let parts = 0;
  try {
    for await (const chunk of body) {
      for (let offset = 0; offset < chunk.length; ) {
        const n = Math.min(chunk.length - offset, partBytes - filled);
        current.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === partBytes) {
          await send(current, filled, ++parts);
          current = await take();
          filled = 0;
        }
      }
    }
    if (parts === 0) {
      await client.send(
        new PutObjectCommand({ ...target, Body: current.subarray(0, filled), ContentLength: filled }),
      );
      return;
    }
    if (filled > 0) await send(current, filled, ++parts);
    await Promise.all(sending);
    if (failure) throw failure;
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: target.Bucket,
        Key: target.Key,
        UploadId: uploadId,
        MultipartUpload: { Parts: done.sort((a, b) => a.PartNumber - b.PartNumber) },
      }),
    );
  } catch (err) {
    await Promise.allSettled(sending);
    if (uploadId)
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: target.Bucket, Key: target.Key, UploadId: uploadId }))
        .catch(() => undefined);
    throw err;
  }
}
