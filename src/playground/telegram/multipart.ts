/**
 * A multipart/form-data parser. Node's `Request.formData()` rejects what grammY
 * sends (header names without a space, an unquoted filename), and Telegram accepts it.
 */
export interface UploadedFile {
  name: string;
  mime: string;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Map<string, UploadedFile>;
}

export function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function dispositionParam(header: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\r\\n]*))`, "i").exec(
    header,
  );
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]?.trim();
}

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
    const headers = new Map<string, string>();
    for (const line of part.subarray(0, headerEnd).toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
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
        });
      } else {
        fields[name] = content.toString("utf8");
      }
    }
    start = next;
  }
  return { fields, files };
}
