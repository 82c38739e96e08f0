/** Exponential backoff with "equal jitter": half the step is fixed, half random. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}
