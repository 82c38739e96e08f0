/**
 * BullMQ's limiter counts jobs in fixed windows. Windows of a second let one
 * second's sends go at the end of a window and the next second's at the start
 * of the following one: twice Telegram's rate within milliseconds, which a
 * bucket of one second's worth answers with 429. Windows of a tenth of that
 * keep the rate, and the worst such meeting (two windows' sends) takes at most
 * a fifth of the bucket, leaving the rest for jobs whose sends come late.
 */
export function sendLimiter(perSecond: number): { max: number; duration: number } {
  const max = Math.max(1, Math.floor(perSecond / 10));
  return { max, duration: Math.ceil((1000 * max) / perSecond) };
}
