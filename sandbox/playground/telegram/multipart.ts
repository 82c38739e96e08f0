import { randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import type { FileContent } from "./files";

/**
 * multipart/form-data parsers: Node's `Request.formData()` rejects what grammY
 * sends (header names without a space, an unquoted filename), and Telegram accepts it.
 */

/** An uploaded file: in memory, or spooled to disk as it arrived (local-server mode). */
export type UploadedFile = FileContent & {
  name: string;
  mime: string;
  size: number;
};

export interface MultipartBody {
  fields: Record<string, string>;
  files: Map<string, UploadedFile>;
}

export function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function partHeaders(block: Buffer): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.toString("utf8").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function dispositionParam(header: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\r\\n]*))`, "i").exec(
    header,
  );
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]?.trim();
}

/** Parses a whole body held in memory (the cloud mode: uploads of at most 50 MB). */
export function parseMultipart(body: Buffer, boundary: string): MultipartBody {
  const fields: Record<string, string> = {};
  const files = new Map<string, UploadedFile>();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  if (start < 0) throw new Error("no multipart boundary in body");
  while (true) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    // skip the CRLF after the delimiter
    if (body[start] === 13 && body[start + 1] === 10) start += 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new Error("unterminated multipart body");
    let end = next;
    if (body[end - 2] === 13 && body[end - 1] === 10) end -= 2;
    const part = body.subarray(start, end);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) throw new Error("multipart part without headers");
    const headers = partHeaders(part.subarray(0, headerEnd));
    const disposition = headers.get("content-disposition") ?? "";
    const name = dispositionParam(disposition, "name");
    const filename = dispositionParam(disposition, "filename");
    const content = part.subarray(headerEnd + 4);
    if (name !== undefined) {
      if (filename !== undefined) {
        files.set(name, {
          name: filename,
          mime: headers.get("content-type") ?? "application/octet-stream",
          bytes: Buffer.from(content),
          size: content.length,
        });
      } else {
        fields[name] = content.toString("utf8");
      }
    }
    start = next;
  }
  return { fields, files };
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let written = 0;
  while (written < chunk.length) {
    written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
  }
}

/** How many bytes at the end of `buf` could be the start of a delimiter that the next chunk completes. */
function delimiterStartAtEnd(buf: Buffer, delimiter: Buffer): number {
  for (let n = Math.min(buf.length, delimiter.length - 1); n > 0; n--) {
    if (buf.subarray(buf.length - n).equals(delimiter.subarray(0, n))) return n;
  }
  return 0;
}

type OpenPart =
  | { name: string; field: Buffer[] }
  | {
      name: string;
      file: { filename: string; mime: string; path: string; handle: FileHandle; size: number };
    };

const maxHeaderBytes = 64 * 1024;

/**
 * Reads a multipart body as it arrives and writes each file part to a file of
 * its own in `spoolDir`, so an upload of up to 2000 MB (local-server mode) is
 * never held in memory; fields stay in memory. A file part is written only up
 * to `maxFileBytes` (its size still counts, so the upload is refused). The
 * caller removes the spooled files after the call; on a malformed or broken
 * body they are removed here.
 */
export async function spoolMultipart(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  spoolDir: string,
  maxFileBytes: number,
): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files = new Map<string, UploadedFile>();
  const spooled: string[] = [];
  // every delimiter but the first follows a CRLF; one put in front lets the first match alike
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buf: Buffer = Buffer.from("\r\n");
  // changed in `advance`, which the loop below calls: typed wide so the loop's check is not narrowed away
  let state = "preamble" as "preamble" | "delimited" | "headers" | "body" | "done";
  let part: OpenPart | undefined;

  const write = async (chunk: Buffer) => {
    if (!part || chunk.length === 0) return;
    if ("field" in part) {
      part.field.push(Buffer.from(chunk));
      return;
    }
    const { file } = part;
    file.size += chunk.length;
    if (file.size <= maxFileBytes) await writeAll(file.handle, chunk);
  };
  const finish = async () => {
    if (!part) return;
    if ("field" in part) {
      fields[part.name] = Buffer.concat(part.field).toString("utf8");
    } else {
      const { file } = part;
      await file.handle.close();
      files.set(part.name, { name: file.filename, mime: file.mime, diskPath: file.path, size: file.size });
    }
    part = undefined;
  };
  const openPart = async (headers: Map<string, string>) => {
    const disposition = headers.get("content-disposition") ?? "";
    const name = dispositionParam(disposition, "name") ?? "";
    const filename = dispositionParam(disposition, "filename");
    if (filename === undefined) return { name, field: [] };
    await mkdir(spoolDir, { recursive: true });
    const path = join(spoolDir, randomUUID());
    spooled.push(path);
    const handle = await open(path, "w");
    const mime = headers.get("content-type") ?? "application/octet-stream";
    return { name, file: { filename, mime, path, handle, size: 0 } };
  };

  /** Parses what `buf` holds; false when it needs more of the body. */
  const advance = async (): Promise<boolean> => {
    if (state === "preamble" || state === "body") {
      const at = buf.indexOf(delimiter);
      if (at < 0) {
        // the end of `buf` may be the start of a delimiter: keep it for the next chunk
        const keep = delimiterStartAtEnd(buf, delimiter);
        if (state === "body") await write(buf.subarray(0, buf.length - keep));
        buf = buf.subarray(buf.length - keep);
        return false;
      }
      if (state === "body") {
        await write(buf.subarray(0, at));
        await finish();
      }
      buf = buf.subarray(at + delimiter.length);
      state = "delimited";
      return true;
    }
    if (state === "delimited") {
      if (buf.length < 2) return false;
      if (buf[0] === 45 && buf[1] === 45) {
        state = "done";
        return true;
      }
      if (buf[0] === 13 && buf[1] === 10) buf = buf.subarray(2);
      state = "headers";
      return true;
    }
    if (state === "headers") {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) {
        if (buf.length > maxHeaderBytes) throw new Error("multipart part headers too long");
        return false;
      }
      part = await openPart(partHeaders(buf.subarray(0, end)));
      buf = buf.subarray(end + 4);
      state = "body";
      return true;
    }
    return false;
  };

  try {
    if (!body) throw new Error("no multipart body");
    const reader = body.getReader();
    while (state !== "done") {
      if (await advance()) continue;
      const { done, value } = await reader.read();
      if (done) throw new Error("unterminated multipart body");
      // usually nothing is left over, and the chunk is taken as it is, without a copy
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    }
    // read the epilogue too: cancelling the stream would close the connection the answer goes out on
    while (!(await reader.read()).done) {}
  } catch (err) {
    if (part && "file" in part) await part.file.handle.close().catch(() => {});
    await Promise.all(spooled.map((path) => rm(path, { force: true })));
    throw err;
  }
  return { fields, files };
}
