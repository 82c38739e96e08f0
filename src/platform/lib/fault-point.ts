/**
 * Crash tests name a point in the code with MSB_FAULT_POINT; the process kills
 * itself there with SIGKILL (no cleanup, like a power cut). Unset, this does nothing.
 */
export function faultPoint(name: string): void {
  if (process.env.MSB_FAULT_POINT !== name) return;
  process.kill(process.pid, "SIGKILL");
  // nothing after the point may run while the signal is on its way
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
