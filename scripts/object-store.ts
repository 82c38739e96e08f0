/**
 * An S3-compatible object store on this machine, for the tests, the benchmarks
 * and a sandbox that wants to try MEDIA_STORE=s3: s3rver (@20minutes/s3rver, a
 * filesystem-backed S3 server that checks SigV4 signatures and presigned links'
 * expiry), with the bucket made at start.
 *
 * s3rver signs a bucket's own address as "/<bucket>" where the AWS SDK v3 signs
 * "/<bucket>/" (a listing, say): every such call would be refused as badly signed.
 * The fix below has s3rver sign it as the SDK does, and nothing else.
 *
 * s3rver lacks two calls of the multipart API that every store we point at has
 * (AWS S3, R2, MinIO): ListMultipartUploads and AbortMultipartUpload. They are
 * added here, on s3rver's own upload folders, so that the bot's clean-up of an
 * upload cut off by a crash runs against this server as it would against those.
 *
 * Settings: OBJECT_STORE_PORT (9000), OBJECT_STORE_DIR (/tmp/msb-object-store),
 * OBJECT_STORE_BUCKETS (comma-separated, "msb-media"). Keys: S3RVER / S3RVER.
 */
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";

interface KoaContext {
  method: string;
  path: string;
  mountPath?: string;
  state: { vhost?: boolean };
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverApp {
  middleware: Middleware[];
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverApp;

const require = createRequire(import.meta.url);
const S3rver = require("@20minutes/s3rver") as S3rverClass;

const port = Number(process.env.OBJECT_STORE_PORT ?? 9000);
const directory = process.env.OBJECT_STORE_DIR ?? "/tmp/msb-object-store";
const buckets = (process.env.OBJECT_STORE_BUCKETS ?? "msb-media").split(",").filter(Boolean);

const uploadsOf = (bucket: string) => join(directory, bucket, "._S3rver_uploads");
const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The unfinished uploads of a bucket whose key starts with `prefix`: s3rver keeps each in a folder with its key. */
async function unfinished(bucket: string, prefix: string) {
  const ids = await readdir(uploadsOf(bucket)).catch(() => [] as string[]);
  const found: { id: string; key: string; initiated: Date }[] = [];
  for (const id of ids) {
    const key = await readFile(join(uploadsOf(bucket), id, "key"), "utf8").catch(() => null);
    const made = await stat(join(uploadsOf(bucket), id)).catch(() => null);
    if (key?.startsWith(prefix) && made) found.push({ id, key, initiated: made.birthtime });
  }
  return found;
}

const multipartCalls: Middleware = async (ctx, next) => {
  const [bucket, ...rest] = ctx.path.split("/").filter(Boolean);
  if (!bucket) return next();
  if (ctx.method === "GET" && rest.length === 0 && "uploads" in ctx.query) {
    const uploads = await unfinished(bucket, one(ctx.query.prefix) ?? "");
    ctx.type = "application/xml";
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${xmlText(bucket)}</Bucket>` +
      `<IsTruncated>false</IsTruncated>` +
      uploads
        .map(
          (u) =>
            `<Upload><Key>${xmlText(u.key)}</Key><UploadId>${xmlText(u.id)}</UploadId>` +
            `<Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
        )
        .join("") +
      `</ListMultipartUploadsResult>`;
    return;
  }
  const uploadId = one(ctx.query.uploadId);
  if (ctx.method === "DELETE" && rest.length > 0 && uploadId) {
    if (!/^[\w-]+$/.test(uploadId)) {
      ctx.status = 400;
      return;
    }
    await rm(join(uploadsOf(bucket), uploadId), { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  return next();
};

/** s3rver builds a request's signed path as mountPath + "/" + bucket, or "/" + bucket + mountPath for a virtual host */
const bucketPathAsSigned: Middleware = (ctx, next) => {
  if (/^\/[^/]+\/$/.test(ctx.path)) {
    ctx.state.vhost = true;
    ctx.mountPath = "/";
  }
  return next();
};

await mkdir(directory, { recursive: true });
const server = new S3rver({
  address: "127.0.0.1",
  port,
  directory,
  silent: true,
  configureBuckets: buckets.map((name) => ({ name })),
});
// first in the chain: s3rver's router answers these two with NotImplemented / MethodNotAllowed
server.middleware.unshift(multipartCalls);
// after s3rver's own host handling, before its router (the last in its chain)
server.middleware.splice(server.middleware.length - 1, 0, bucketPathAsSigned);
const address = await server.run();
console.log(
  `object store on http://127.0.0.1:${address.port} (${directory}), buckets: ${buckets.join(", ")}`,
);
const stop = () => void server.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
