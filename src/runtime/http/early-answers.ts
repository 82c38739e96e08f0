import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The most of a request body left unread by an answer that is read and dropped
 * to keep the connection: well past any body a route takes (1 MB), so a client
 * that sends a few MB too many still reads its 413.
 */
const maxDiscardBytes = 16 * 1024 * 1024;

/**
 * A route may answer before it read the request body: a 413 from a body limit,
 * a 401 or 404 that never looks at it. A keep-alive connection is usable again
 * only once the rest of that body is off the wire; a client pooling its sockets
 * sends its next request on it as soon as its upload is out, so a server that
 * then closes the socket without saying so fails that next, innocent request
 * with ECONNRESET. (@hono/node-server's own clean-up does exactly that: it gives
 * the unread body 500 ms, then destroys the socket; it must be off.)
 *
 * So, when the answer's head goes out and the body is still incomplete:
 * - a body declared at most `maxDiscardBytes` long, or of unstated length
 *   (chunked), is read and dropped once the answer is sent, and the connection
 *   stays open; a chunked one that runs past `maxDiscardBytes` is cut off there;
 * - one declared longer gets `Connection: close`: node ends the connection
 *   after the answer and the client does not reuse it.
 *
 * Wraps `res.writeHead`, which node calls for every answer (`end()` and
 * `write()` without a head call it too), as the on-headers package does.
 */
export function keepConnectionUsable(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete && !res.headersSent) {
      const declared = Number(req.headers["content-length"]);
      const discardable =
        req.headers["transfer-encoding"] !== undefined ||
        (Number.isSafeInteger(declared) && declared <= maxDiscardBytes);
      if (discardable) res.once("finish", () => discardRest(req));
      else res.setHeader("connection", "close");
    }
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
}

/**
 * Node drops an unread body by itself only when nothing touched it; here a web
 * stream (the Request's body) usually holds it, paused because nobody reads it.
 * Its listeners are let go, as node's own `_dump` does, and the rest flows away.
 */
function discardRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.removeAllListeners("data");
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxDiscardBytes) req.socket.destroy();
  });
  req.resume();
}
