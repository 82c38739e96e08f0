import { createCipheriv, createHash } from "node:crypto";

/** Incompressible, reproducible bytes (AES-CTR over zeros) from `seed`, in 64 KiB chunks. */
export function* pseudoRandom(seed: string, size: number): Generator<Buffer> {
  const key = createHash("sha256").update(seed).digest();
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  const zeros = Buffer.alloc(64 * 1024);
  for (let left = size; left > 0; left -= zeros.length) {
    yield cipher.update(left >= zeros.length ? zeros : zeros.subarray(0, left));
  }
}

export function sha256Of(chunks: Iterable<Buffer>): string {
  const hash = createHash("sha256");
  for (const c of chunks) hash.update(c);
  return hash.digest("hex");
}
