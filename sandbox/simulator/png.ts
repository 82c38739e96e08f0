import { createHash } from "node:crypto";
import { encodePng } from "../../src/platform/lib/png";

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
  const bandColour = Buffer.from(band);
  // whole rows and the stripe filled natively, and the fastest deflate: a task's pictures are
  // drawn as it completes, on the event loop the simulator shares with the bot in tests
  return encodePng(
    width,
    height,
    (y) => {
      const t = height > 1 ? y / (height - 1) : 0;
      const colour =
        y >= bandTop && y < bandBottom
          ? bandColour
          : Buffer.from(from.map((f, i) => Math.round(f + (to[i]! - f) * t)));
      line.fill(colour);
      if (stripeRight > stripeLeft) line.fill(bandColour, stripeLeft * 3, stripeRight * 3);
      return line;
    },
    { level: 1 },
  );
}

/** Width and height of a PNG, read from its IHDR. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString("ascii", 12, 16) !== "IHDR")
    return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
