import { Transform } from "node:stream";

/** How many streamed bytes pass between two minor GCs. */
const releaseEveryBytes = 1024 * 1024;

type MinorGc = (options: { type: "minor" }) => void;
const minorGc = (globalThis as { gc?: MinorGc }).gc;

/**
 * Each chunk read from a socket or a file is an ArrayBuffer of its own, freed
 * only when V8 collects its Buffer; relaying tens of MB allocates next to
 * nothing on the JS heap, so no GC comes until V8's external-memory limit and
 * every chunk relayed until then stays resident (~30 MB per large relay, see
 * bench/memory.ts). A minor GC (a scavenge, about a millisecond) after every
 * MB frees them. After every 4 MB, a warm worker on Node 24 still grew 19-20 MB
 * relaying a 50 MB output; after every MB, 0.1-1.3 MB. Needs node's --expose-gc
 * (npm start has it); without it, chunks pass on as they are.
 */
function counter(collect: MinorGc | undefined): (bytes: number) => void {
  let sinceGc = 0;
  return (bytes) => {
    sinceGc += bytes;
    if (sinceGc >= releaseEveryBytes && collect) {
      sinceGc = 0;
      collect({ type: "minor" });
    }
  };
}

/** A pipeline stage passing chunks on unchanged, freeing the relayed ones as it goes (see `counter`). */
export function releasingChunks(collect = minorGc): Transform {
  const count = counter(collect);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, chunk);
      count(chunk.length);
    },
  });
}

/** `source`'s chunks, unchanged, the relayed ones freed as it goes (see `counter`). */
export async function* releaseChunks<T extends { length: number }>(
  source: AsyncIterable<T>,
  collect = minorGc,
) {
  const count = counter(collect);
  for await (const chunk of source) {
    yield chunk;
    count(chunk.length);
  }
}
