import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it, vi } from "vitest";
import { releaseChunks, releasingChunks } from "../../../src/platform/lib/release-chunks";

const mb = 1024 * 1024;
/** 10 MB in 64 KB chunks, each different */
const chunks = () => Array.from({ length: 160 }, (_, i) => Buffer.alloc(64 * 1024, i));
const digest = (parts: readonly Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest("hex");

describe("relayed chunks freed as they pass", () => {
  it("a pipeline stage passes every byte on and asks for a minor GC after each MB", async () => {
    const collect = vi.fn();
    const out: Buffer[] = [];
    await pipeline(
      Readable.from(chunks()),
      releasingChunks(collect),
      async (source: AsyncIterable<Buffer>) => {
        for await (const c of source) out.push(c);
      },
    );
    expect(digest(out)).toBe(digest(chunks()));
    expect(collect).toHaveBeenCalledTimes(Math.floor((10 * mb) / mb));
    expect(collect).toHaveBeenCalledWith({ type: "minor" });
  });

  it("an upload's source passes every byte on the same way", async () => {
    const collect = vi.fn();
    const out: Buffer[] = [];
    for await (const c of releaseChunks(Readable.from(chunks()), collect)) out.push(c as Buffer);
    expect(digest(out)).toBe(digest(chunks()));
    expect(collect).toHaveBeenCalledTimes(10);
  });

  it("without node's --expose-gc the chunks only pass", async () => {
    const out: Buffer[] = [];
    for await (const c of releaseChunks(Readable.from(chunks()), undefined)) out.push(c as Buffer);
    expect(digest(out)).toBe(digest(chunks()));
  });
});
