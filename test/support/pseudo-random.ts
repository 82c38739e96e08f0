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

/** Reproducible numbers in [0, 1) from `seed`: the bytes of `pseudoRandom`, 32 bits a number. */
export function pseudoRandomNumbers(seed: string): () => number {
  const chunks = pseudoRandom(seed, Number.MAX_SAFE_INTEGER);
  let chunk = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 4 > chunk.length) {
      chunk = chunks.next().value ?? Buffer.alloc(0);
      at = 0;
    }
    const n = chunk.readUInt32LE(at);
    at += 4;
    return n / 2 ** 32;
  };
}
