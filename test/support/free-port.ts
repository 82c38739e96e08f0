import { createServer } from "node:net";

/** Ports below Linux's ephemeral range (32768-60999), so no outgoing connection takes one between the check and the bind. */
const reservedPorts = { from: 20_000, to: 32_000 };

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/**
 * A port for a server a test starts later (often in another process). Picked
 * from outside the ephemeral range: a port from listen(0) is one the kernel also
 * hands to outgoing connections, and a Postgres or Redis client of a parallel
 * test file could hold it by the time the server binds (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const span = reservedPorts.to - reservedPorts.from;
  for (let tries = 0; tries < 100; tries++) {
    const port = reservedPorts.from + Math.floor(Math.random() * span);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${reservedPorts.from}-${reservedPorts.to}`);
}
