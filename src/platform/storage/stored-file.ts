import { posix } from "node:path";
import type { Readable } from "node:stream";

/** A file in the media store, by its path in the store (a key in a bucket), e.g. "<gid>/0.png". */
export interface StoredFile {
  path: string;
  size: number;
  mimeType: string;
  fileName: string;
}

/** what a fill says of the file it wrote, for its extension */
export interface FillFacts {
  contentType?: string | undefined;
  url: string;
}

/**
 * Our own copy of every output (the service asks clients to copy them) and
 * the inputs we keep for the service: a directory on this host
 * (`media-store.ts`) or an S3-compatible bucket (`bucket-store.ts`), one
 * folder per generation either way. A file is whole once it is found: both
 * write through a temporary name or an upload completed at the end.
 */
export interface MediaStore {
  kind: "local" | "bucket";
  /** Copies one output into the store; a second call for the same slot reuses the file. */
  copy(folder: string, index: number, url: string): Promise<StoredFile>;
  existing(path: string): Promise<StoredFile | null>;
  /** The outputs copied for a generation, in slot order (none once retention removed them). */
  outputsOf(folder: string): Promise<StoredFile[]>;
  /** A generation's kept input `name` (`source` is a dub's), if a complete one was kept. */
  findInput(generationId: string, name?: string): Promise<StoredFile | null>;
  /** Keeps a generation's input: `fill` writes it to a temporary file and says what it is. */
  keepInput(
    generationId: string,
    fill: (temporaryPath: string) => Promise<FillFacts>,
    name?: string,
  ): Promise<StoredFile>;
  /**
   * Keeps the parts of a generation's input (a dub in parts): `fill` writes
   * them into a temporary folder as `<index>.mp3` and says where each lies in
   * the input; `findParts` finds the plan only once every part is kept.
   */
  keepParts<P>(generationId: string, fill: (temporaryDir: string) => Promise<P[]>): Promise<P[]>;
  /** The plan of a generation's kept parts (as `keepParts` was given it), or null before they are kept. */
  findParts(generationId: string): Promise<unknown[] | null>;
  /** Writes a generation's output in slot `slot` ourselves (a dub joined from its parts); `copy` then finds it. */
  keepOutput(
    folder: string,
    slot: number,
    ext: string,
    fill: (temporaryPath: string) => Promise<void>,
  ): Promise<StoredFile>;
  /** the generation folders at the top of the store, or of one of its areas (`inputsArea`) */
  folders(area?: string): Promise<string[]>;
  /** Removes a folder and everything in it; how many files it held. */
  removeFolder(folder: string): Promise<number>;
  open(path: string): Promise<Readable>;
  /** Runs `use` on paths of this host's disk holding `files` (for ffmpeg), valid until it settles. */
  withLocalFiles<T>(files: StoredFile[], use: (paths: string[]) => Promise<T>): Promise<T>;
  /**
   * A link to fetch the file straight from the store for `seconds` (saved as
   * `downloadAs` when given), or null where only our file proxy serves it.
   */
  link(path: string, seconds: number, downloadAs?: string): Promise<string | null>;
  /** Aborts the uploads a crash left unfinished, begun before `olderThan`; how many. */
  abortStaleUploads(olderThan: Date): Promise<number>;
}

const extensionOf: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/ogg": "ogg",
};
const mimeOfExtension: Record<string, string> = Object.fromEntries(
  Object.entries(extensionOf).map(([m, e]) => [e, m]),
);
/** what a copied output may be named after its slot number */
const slotExtensions = new Set([...Object.values(extensionOf), "bin"]);

/** Where a generation's kept inputs live: `inputs/<generation id>/<name>.<ext>`. */
export const inputsArea = "inputs";
export const inputName = (name: string) => new RegExp(`^${name}\\.[a-z0-9]{2,4}$`);
export const partsFolder = (generationId: string) => `${inputsArea}/${generationId}/parts`;
/** where part `index` of a generation's kept parts is (`keepParts` writes `<index>.mp3`) */
export const partPath = (generationId: string, index: number) => `${partsFolder(generationId)}/${index}.mp3`;

export function extensionFor(url: string, contentType: string | null | undefined): string {
  const fromType = contentType ? extensionOf[contentType.split(";")[0]!.trim().toLowerCase()] : undefined;
  if (fromType) return fromType;
  const m = /\.([a-z0-9]{2,4})(?:$|[?#])/i.exec(new URL(url).pathname);
  return m?.[1]?.toLowerCase() ?? "bin";
}

/** The path in the store, refused when it would leave it ("..", absolute). */
export function keyOf(path: string): string {
  const clean = posix.normalize(path);
  if (clean.startsWith("..") || clean.startsWith("/")) throw new Error(`path escapes the store: ${path}`);
  return clean;
}

/** whether a path names something inside the store (a file or not) */
export function insideStore(path: string): boolean {
  try {
    keyOf(path);
    return true;
  } catch {
    return false;
  }
}

export function fileOf(path: string, size: number): StoredFile {
  const ext = path.split(".").pop() ?? "bin";
  return {
    path,
    size,
    mimeType: mimeOfExtension[ext] ?? "application/octet-stream",
    fileName: path.split("/").pop() ?? path,
  };
}

/** the slot of an output's file name (`<slot>.<ext>`), or null for any other file */
export function slotOf(path: string): number | null {
  const m = /^(\d+)\.([a-z0-9]{2,4})$/.exec(path.split("/").pop() ?? "");
  return m && slotExtensions.has(m[2]!) ? Number(m[1]) : null;
}

export class DownloadError extends Error {
  override name = "DownloadError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** An output's answer from the service, ready to stream, with the extension it is kept under. */
export async function downloadOutput(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number },
): Promise<{ body: ReadableStream<Uint8Array>; extension: string }> {
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 120_000) });
  } catch (err) {
    throw new DownloadError(`output download failed: ${(err as Error).message}`, true);
  }
  if (!res.ok || !res.body) {
    throw new DownloadError(
      `output download answered ${res.status}`,
      res.status >= 500 || res.status === 429,
    );
  }
  return { body: res.body, extension: extensionFor(url, res.headers.get("content-type")) };
}
