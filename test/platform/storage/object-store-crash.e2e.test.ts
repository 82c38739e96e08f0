import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ledgerEntries } from "../../../src/platform/db/schema";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../../support/harness";
import { freshBucket, testS3Client, unfinishedUploads } from "../../support/object-store";
import { pseudoRandom, sha256Of } from "../../support/pseudo-random";

const MB = 1024 * 1024;
/** six parts of the bucket store's 5 MiB: the upload is multipart, and long enough to be cut off */
const outputBytes = 30 * MB;
const seed = "object-store-crash";
/** a 64 KiB chunk every 5 ms (about 12 MB/s): the worker dies with most of the output still to come */
const chunkDelayMs = 5;

/**
 * The service's file host for this test: every output it names is the same
 * 30 MB of pseudo-random bytes (a "PNG", sent on as a document), served slowly.
 * Counts the downloads begun and the ones served whole.
 */
async function startSlowOutputs() {
  let begun = 0;
  let whole = 0;
  const server: Server = createServer((_req, res) => {
    begun++;
    res.writeHead(200, { "content-type": "image/png", "content-length": String(outputBytes) });
    let cut = false;
    res.once("close", () => {
      cut = !res.writableFinished;
    });
    void (async () => {
      for (const chunk of pseudoRandom(seed, outputBytes)) {
        if (cut || res.destroyed) return;
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
        await new Promise((r) => setTimeout(r, chunkDelayMs));
      }
      res.end(() => {
        whole++;
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    downloads: () => ({ begun, whole }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A worker (a real process, with a bucket for its media store and a scratch
 * disk of its own) is killed with SIGKILL while it streams an output from the
 * service into the bucket, a multipart upload with parts already sent. The
 * next worker takes the delivery over: it aborts the upload the crash left and
 * uploads the output again, whole; the user gets it once and pays once.
 */
describe("a worker killed in the middle of a multipart upload into the bucket", () => {
  let h: Harness;
  let outputs: Awaited<ReturnType<typeof startSlowOutputs>>;
  let bucket: Awaited<ReturnType<typeof freshBucket>>;
  const scratchDirs: string[] = [];
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    outputs = await startSlowOutputs();
    bucket = await freshBucket();
    h = await startHarness({
      env: { ROLE: "web", ...bucket.env },
      // the output URLs the simulator hands out point at the slow file host
      simulator: { publicUrl: outputs.base },
    });
  }, 60_000);

  afterAll(async () => {
    worker?.kill("SIGKILL");
    await h?.stop();
    await outputs?.close();
    for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
  });

  /** a worker on the bucket, with its own DATA_DIR (its scratch disk) */
  async function spawnWorker() {
    const dataDir = await mkdtemp(join(tmpdir(), "msb-s3-crash-worker-"));
    scratchDirs.push(dataDir);
    return h.spawnRuntime({ ROLE: "worker", PORT: "0", DATA_DIR: dataDir });
  }

  async function kill(child: ChildProcess) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async function objectBytes(key: string): Promise<Buffer[]> {
    const got = await testS3Client().send(new GetObjectCommand({ Bucket: bucket.settings.bucket, Key: key }));
    const chunks: Buffer[] = [];
    for await (const chunk of got.Body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
    return chunks;
  }

  test("the next worker aborts the cut-off upload, stores the output whole, delivers it once, charges once", async () => {
    worker = await spawnWorker();
    const user = await startedUser(h);
    await requestImage(user, "a very large harbour");
    const g = await generationIn(h, user.id, "delivering", 30_000);
    const key = `${g.id}/0.png`;

    // the multipart upload of this generation's output is under way: parts are going into the bucket
    await eventually(
      async () => ((await unfinishedUploads(bucket.settings.bucket)).includes(key) ? true : undefined),
      30_000,
    );
    await kill(worker);
    worker = undefined;
    // the crash's leftover: begun, never completed, never aborted, and no object under the key
    expect(await unfinishedUploads(bucket.settings.bucket)).toEqual([key]);
    expect(outputs.downloads()).toEqual({ begun: 1, whole: 0 });
    await expect(
      testS3Client().send(new HeadObjectCommand({ Bucket: bucket.settings.bucket, Key: key })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });

    worker = await spawnWorker();
    const done = await generationIn(h, user.id, "delivered", 60_000);

    // the user got the result once: one document, the output's bytes
    const documents = user.messages().filter((m) => m.document);
    expect(documents).toHaveLength(1);
    expect(
      h.tg.callsOf("sendDocument").filter((c) => Number(c.params.chat_id) === user.chatId && c.response.ok),
    ).toHaveLength(1);
    const expected = sha256Of(pseudoRandom(seed, outputBytes));
    const fileId = documents[0]!.document!.file_id;
    expect(done.fileIds).toEqual([fileId]);
    expect(sha256Of([h.tg.fileBytes(fileId)])).toBe(expected);
    // the first attempt died copying (before any send), the second sent it
    expect((await h.runtime.generations.deliveriesOf(done.id)).map((a) => a.state)).toEqual([
      "sending",
      "sent",
    ]);

    // no upload is left holding parts in the bucket, and the object there is whole
    expect(await unfinishedUploads(bucket.settings.bucket)).toEqual([]);
    const head = await testS3Client().send(
      new HeadObjectCommand({ Bucket: bucket.settings.bucket, Key: key }),
    );
    expect(head.ContentLength).toBe(outputBytes);
    expect(sha256Of(await objectBytes(key))).toBe(expected);
    expect(outputs.downloads().whole).toBe(1);

    // paid once, nothing left held, the ledger sound
    const charges = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, "charge"), eq(ledgerEntries.key, done.holdKey)));
    expect(charges).toHaveLength(1);
    expect(done.charged).toBe(done.price);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - done.price,
      held: 0,
    });
    expect(await h.runtime.ledger.audit()).toEqual([]);
  }, 150_000);
});
