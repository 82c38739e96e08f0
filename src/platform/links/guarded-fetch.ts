import { lookup as dnsLookup } from "node:dns";
import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Logger } from "../lib/logger";
import { messageOf } from "../lib/message-of";
import { type AddressPolicy, isPublicAddress } from "./public-address";

/**
 * The one way the bot opens a link a user gave it (a dubbing source): https
 * only, redirects followed by hand (each to https, at most `maxRedirects`),
 * never to a non-public address (checked on the address resolved and again on
 * the socket actually connected), everything within `timeoutMs`.
 */
export type LinkFailure =
  | "not-https"
  | "private-address"
  | "too-many-redirects"
  | "http-status"
  | "size-cap"
  | "time-cap"
  | "unreadable"
  | "network";

export const linkMaxRedirects = 3;

export interface LinkGuardOptions {
  /** which addresses may be connected to; the default refuses every non-public one */
  allowAddress?: AddressPolicy;
  /** certificates to trust besides the system's (tests: their self-signed one) */
  ca?: string | Buffer;
  maxRedirects?: number;
  logger?: Pick<Logger, "warn">;
}

/** Why reading a link stopped early; carried through the abort signal. */
export class LinkStop extends Error {
  constructor(readonly reason: LinkFailure) {
    super(reason);
  }
}

/** What the reader of an opened link may do: stop it (a cap reached, or done), and see it stopped. */
export interface LinkControl {
  abort(reason: LinkFailure): void;
  /** rejects with the `LinkStop` once the link is stopped (a cap, the time, a refusal) */
  stopped: Promise<never>;
}

export type GuardedResult<T> = { ok: true; value: T } | { ok: false; reason: LinkFailure };

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A DNS lookup that fails when any address the name resolves to is refused by the policy. */
function guardedLookup(allow: AddressPolicy, refused: () => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", undefined);
      const bad = addresses.find((a) => !allow(a.address));
      if (bad || addresses.length === 0) {
        refused();
        return callback(new LinkStop("private-address"), "", undefined);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

interface Guard {
  allowAddress: AddressPolicy;
  ca?: string | Buffer | undefined;
  accept: string;
}

/** One GET, connected only to an allowed address (checked again on the socket actually connected). */
function get(
  url: URL,
  g: Guard,
  signal: AbortSignal,
  abort: (r: LinkFailure) => void,
): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // an address written in the link is never looked up: check it here
    if (isIP(host) && !g.allowAddress(host)) return reject(new LinkStop("private-address"));
    const req = request(url, {
      method: "GET",
      agent: false,
      signal,
      lookup: guardedLookup(g.allowAddress, () => abort("private-address")),
      headers: { accept: g.accept, "accept-encoding": "identity" },
      ...(g.ca ? { ca: g.ca } : {}),
    });
    // the address actually connected to, before the TLS handshake sends anything
    req.once("socket", (socket) => {
      socket.once("connect", () => {
        const remote = socket.remoteAddress;
        if (remote !== undefined && g.allowAddress(remote)) return;
        abort("private-address");
        socket.destroy(new LinkStop("private-address"));
      });
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.end();
  });
}

/** Follows the link to its final 200/206 answer; any other ending is a `LinkStop`. */
async function open(
  link: string,
  o: Guard & { maxRedirects: number },
  signal: AbortSignal,
  control: LinkControl,
): Promise<IncomingMessage> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new LinkStop("not-https");
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== "https:") throw new LinkStop("not-https");
    const response = await Promise.race([get(url, o, signal, control.abort), control.stopped]);
    const status = response.statusCode ?? 0;
    if (redirectStatuses.has(status)) {
      response.resume();
      const location = response.headers.location;
      if (!location) throw new LinkStop("http-status");
      if (hop >= o.maxRedirects) throw new LinkStop("too-many-redirects");
      try {
        url = new URL(location, url);
      } catch {
        throw new LinkStop("http-status");
      }
      continue;
    }
    if (status !== 200 && status !== 206) {
      response.resume();
      throw new LinkStop("http-status");
    }
    return response;
  }
}

/**
 * Opens `link` under the guards and gives its body to `read`; the whole of it,
 * redirects and reading included, is stopped after `timeoutMs` (real ms).
 * Never throws for what the link does: the reason comes back instead, and is
 * logged at warn with the host only.
 */
export async function readGuardedLink<T>(
  link: string,
  options: LinkGuardOptions & { timeoutMs: number; accept: string; what: string },
  read: (response: IncomingMessage, control: LinkControl) => Promise<T>,
): Promise<GuardedResult<T>> {
  const controller = new AbortController();
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  const control: LinkControl = {
    abort: (reason) => {
      if (!controller.signal.aborted) controller.abort(new LinkStop(reason));
    },
    stopped,
  };
  const timer = setTimeout(() => control.abort("time-cap"), options.timeoutMs);
  const guard = {
    allowAddress: options.allowAddress ?? isPublicAddress,
    ca: options.ca,
    accept: options.accept,
    maxRedirects: options.maxRedirects ?? linkMaxRedirects,
  };
  try {
    const response = await open(link, guard, controller.signal, control);
    return { ok: true, value: await read(response, control) };
  } catch (err) {
    const reason = stopReason(err, controller.signal);
    options.logger?.warn(
      { reason, host: hostOf(link), err: messageOf(err) },
      `${options.what}: link not read`,
    );
    return { ok: false, reason };
  } finally {
    clearTimeout(timer);
    // the connection goes with it, whatever is still unread
    control.abort("unreadable");
  }
}

/** The reason reading failed: the cap or refusal that stopped it, else the network. */
function stopReason(err: unknown, signal: AbortSignal): LinkFailure {
  if (signal.aborted && signal.reason instanceof LinkStop) return signal.reason.reason;
  if (err instanceof LinkStop) return err.reason;
  if (err instanceof Error && err.cause instanceof LinkStop) return err.cause.reason;
  return "network";
}

function hostOf(link: string): string | undefined {
  try {
    return new URL(link).host;
  } catch {
    return undefined;
  }
}
