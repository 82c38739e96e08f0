import { createHash } from "node:crypto";
import { encodePng } from "../lib/png";

/** A picture derived from a seed: a vertical gradient between two colours, crossed by a band and a stripe. */
export function seededPicture(width: number, height: number, seed: string): Buffer {
  const h = createHash("sha256").update(seed).digest();
  const from = [h[0]!, h[1]!, h[2]!];
  const to = [h[3]!, h[4]!, h[5]!];
  const band = [255 - h[6]!, 255 - h[7]!, 255 - h[8]!];
  const bandTop = Math.floor(height * 0.45);
  const bandBottom = Math.floor(height * 0.55);
  const stripeLeft = Math.floor(width * 0.45);
  const stripeRight = Math.floor(width * 0.55);
  const line = Buffer.alloc(width * 3);
  return encodePng(width, height, (y) => {
    const t = height > 1 ? y / (height - 1) : 0;
    const colour =
      y >= bandTop && y < bandBottom ? band : from.map((f, i) => Math.round(f + (to[i]! - f) * t));
    for (let x = 0; x < width; x++) {
      const c = x >= stripeLeft && x < stripeRight ? band : colour;
      line[x * 3] = c[0]!;
      line[x * 3 + 1] = c[1]!;
      line[x * 3 + 2] = c[2]!;
    }
    return line;
  });
}

/** Width and height of a PNG, read from its IHDR. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString("ascii", 12, 16) !== "IHDR")
    return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
