import { Agent, request } from "node:http";

/**
 * Requests sent the way a pooling client sends them (Node's keep-alive agent),
 * counting those that got no HTTP answer at all (ECONNRESET and the like): what
 * a route answering before it read the body costs other requests.
 */

export interface Shot {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** sent chunked, without a content-length */
  chunked?: boolean;
}

export interface Outcome {
  statuses: Record<number, number>;
  errors: string[];
}

export const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
export const small = (text: string) => Buffer.from(text);

/** Sends `shots` `concurrency` at a time through one keep-alive agent, as Node's default agent pools. */
export async function fire(base: string, shots: Shot[], concurrency = 12): Promise<Outcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const outcome: Outcome = { statuses: {}, errors: [] };
  const one = (shot: Shot) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const done = (error?: string) => {
        if (settled) return;
        settled = true;
        if (error) outcome.errors.push(`${shot.method} ${shot.path.slice(0, 30)}: ${error}`);
        resolve();
      };
      const headers: Record<string, string> = { ...shot.headers };
      if (shot.body && !shot.chunked) headers["content-length"] = String(shot.body.length);
      const req = request(`${base}${shot.path}`, { method: shot.method, headers, agent }, (res) => {
        res.resume();
        res.once("end", () => {
          outcome.statuses[res.statusCode ?? 0] = (outcome.statuses[res.statusCode ?? 0] ?? 0) + 1;
          done();
        });
        res.once("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      });
      req.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      req.setTimeout(20_000, () => req.destroy(new Error("timeout")));
      if (shot.body && shot.chunked) {
        for (let at = 0; at < shot.body.length; at += 256 * 1024)
          req.write(shot.body.subarray(at, at + 256 * 1024));
        req.end();
      } else req.end(shot.body);
    });
  let next = 0;
  const lane = async () => {
    while (next < shots.length) await one(shots[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  agent.destroy();
  return outcome;
}

/** `count` shots: every fourth from `large`, the rest cycling through `others`. */
export function mix(count: number, large: Shot[], others: Shot[]): Shot[] {
  return Array.from({ length: count }, (_, i) =>
    i % 4 === 0 ? large[(i / 4) % large.length]! : others[i % others.length]!,
  );
}

export const errorsOf = (o: Outcome) => ({ errors: o.errors.length, first: o.errors.slice(0, 5) });
