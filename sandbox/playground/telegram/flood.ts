import type { Clock } from "../../../src/platform/lib/clock";
import { tooManyRequests } from "./errors";
import type { TelegramRules } from "./rules";

/**
 * Flood control: a token bucket per chat, a one-minute window per group and a
 * token bucket across chats holding one second's worth. Each request that posts
 * or edits a message counts once (an album is one request).
 */
export class FloodControl {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  private readonly groupWindows = new Map<number, number[]>();
  private global: { tokens: number; at: number } | undefined;

  constructor(
    private readonly rules: () => TelegramRules,
    private readonly clock: Clock,
  ) {}

  /** Throws a 429 with retry_after when a limit is reached, otherwise counts the request. */
  take(chatId: number, isGroup: boolean, counts: { global: boolean } = { global: true }): void {
    const flood = this.rules().flood;
    if (flood === false) return;
    const now = this.clock.now();
    const waits: number[] = [];

    let bucket: { tokens: number; at: number } | undefined;
    if (flood.perChat) {
      const { perSecond, burst } = flood.perChat;
      const prior = this.buckets.get(chatId) ?? { tokens: burst, at: now };
      bucket = { tokens: Math.min(burst, prior.tokens + ((now - prior.at) / 1000) * perSecond), at: now };
      if (bucket.tokens < 1) waits.push(((1 - bucket.tokens) / perSecond) * 1000);
    }
    let groupWindow: number[] | undefined;
    if (isGroup && flood.perGroupPerMinute !== false) {
      groupWindow = (this.groupWindows.get(chatId) ?? []).filter((t) => t > now - 60_000);
      if (groupWindow.length >= flood.perGroupPerMinute) waits.push(groupWindow[0]! + 60_000 - now);
    }
    let global: { tokens: number; at: number } | undefined;
    if (counts.global && flood.globalPerSecond !== false) {
      const rate = flood.globalPerSecond;
      const prior = this.global ?? { tokens: rate, at: now };
      global = { tokens: Math.min(rate, prior.tokens + ((now - prior.at) / 1000) * rate), at: now };
      if (global.tokens < 1) waits.push(((1 - global.tokens) / rate) * 1000);
    }

    if (waits.length > 0) {
      if (bucket) this.buckets.set(chatId, bucket);
      if (global) this.global = global;
      throw tooManyRequests(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
    }
    if (bucket) this.buckets.set(chatId, { tokens: bucket.tokens - 1, at: now });
    if (groupWindow) {
      groupWindow.push(now);
      this.groupWindows.set(chatId, groupWindow);
    }
    if (global) this.global = { tokens: global.tokens - 1, at: now };
  }

  reset(): void {
    this.buckets.clear();
    this.groupWindows.clear();
    this.global = undefined;
  }
}
