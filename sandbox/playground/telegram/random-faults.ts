/**
 * Seeded random faults on the stand-in's method calls, off unless a test
 * asks: the network between the bot and Telegram as it is on a bad day. A
 * dropped connection is cut before the call is handled (nothing happened) or
 * after it (it happened, and the bot never heard so: Telegram did not
 * confirm it); a 502 is answered without handling the call.
 */
export interface RandomFaultOptions {
  /** the same seed draws the same faults for the same sequence of calls */
  seed: number;
  /** share of calls whose connection is cut, half before and half after handling (0.1: one in ten) */
  dropRate: number;
  /** share of calls answered 502 Bad Gateway without being handled (0.05: one in twenty) */
  badGatewayRate: number;
}

export type FaultDraw = "none" | "drop-before" | "drop-after" | "bad-gateway";

/** mulberry32: a small, well-spread generator of numbers in [0, 1) from a 32-bit seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws one fault per call, in the order the calls arrive, and counts what it drew. */
export class RandomFaults {
  private readonly next: () => number;
  readonly drawn: Record<Exclude<FaultDraw, "none">, number> = {
    "drop-before": 0,
    "drop-after": 0,
    "bad-gateway": 0,
  };

  constructor(private readonly options: RandomFaultOptions) {
    this.next = generator(options.seed);
  }

  draw(): FaultDraw {
    const r = this.next();
    const { dropRate, badGatewayRate } = this.options;
    const fault: FaultDraw =
      r < dropRate / 2
        ? "drop-before"
        : r < dropRate
          ? "drop-after"
          : r < dropRate + badGatewayRate
            ? "bad-gateway"
            : "none";
    if (fault !== "none") this.drawn[fault] += 1;
    return fault;
  }
}
