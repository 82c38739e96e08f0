/** Downloads an input file the way the service must: public, no login, size-capped. */

export type Download =
  | { ok: true; bytes: Buffer; contentType: string | undefined }
  | { ok: false; reason: string; tooLarge?: boolean };

export async function download(
  url: string,
  opts: { maxBytes: number; timeoutMs: number; fetch?: typeof fetch },
): Promise<Download> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, { redirect: "follow", signal });
  } catch (e) {
    return { ok: false, reason: `cannot download ${url}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, reason: `cannot download ${url}: HTTP ${response.status}` };
  }
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return { ok: false, tooLarge: true, reason: `${url} is larger than ${opts.maxBytes} bytes` };
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const part of response.body) {
      size += part.byteLength;
      if (size > opts.maxBytes) {
        return { ok: false, tooLarge: true, reason: `${url} is larger than ${opts.maxBytes} bytes` };
      }
      parts.push(part);
    }
  } catch (e) {
    return {
      ok: false,
      reason: `download of ${url} broke off: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  return {
    ok: true,
    bytes: Buffer.concat(parts),
    contentType: response.headers.get("content-type") ?? undefined,
  };
}
