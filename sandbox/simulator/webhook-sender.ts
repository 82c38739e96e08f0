import { randomUUID } from "node:crypto";
import type { Clock } from "../../src/platform/lib/clock";
import { webhookHeaders } from "../../src/platform/media-service/webhook-signature";

/**
 * Delivers `task.completed` to the configured URL, signed when a secret is
 * set, retrying on failure with growing delays (clock time).
 */

export interface WebhookTarget {
  url: string;
  signingSecret?: string | undefined;
}

export interface WebhookDelivery {
  taskId: string;
  webhookId: string;
  attempt: number;
  at: number;
  status?: number;
  error?: string;
}

export interface WebhookSenderOptions {
  clock: Clock;
  signal: AbortSignal;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  onDelivery: (d: WebhookDelivery) => void;
  onError: (e: unknown) => void;
}

export function createWebhookSender(opts: WebhookSenderOptions) {
  async function attemptOnce(
    target: WebhookTarget,
    taskId: string,
    webhookId: string,
    body: string,
    attempt: number,
  ) {
    const timestamp = Math.floor(opts.clock.now() / 1000);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "media-service-simulator",
      ...(target.signingSecret
        ? webhookHeaders(target.signingSecret, webhookId, timestamp, body)
        : { "webhook-id": webhookId, "webhook-timestamp": String(timestamp) }),
    };
    const record: WebhookDelivery = { taskId, webhookId, attempt, at: opts.clock.now() };
    try {
      const response = await fetch(target.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]),
      });
      await response.body?.cancel().catch(() => undefined);
      record.status = response.status;
      opts.onDelivery(record);
      return response.ok;
    } catch (e) {
      record.error = e instanceof Error ? e.message : String(e);
      opts.onDelivery(record);
      return false;
    }
  }

  /** Sends one event until it is accepted or the retries run out. */
  async function deliver(
    target: WebhookTarget,
    taskId: string,
    payload: unknown,
    o: { delayMs?: number; webhookId?: string } = {},
  ): Promise<void> {
    const body = JSON.stringify(payload);
    // the same id on every retry, so a receiver can drop repeats
    const webhookId = o.webhookId ?? `msg_${randomUUID()}`;
    const delayMs = o.delayMs ?? 0;
    try {
      if (delayMs > 0) await opts.clock.sleep(delayMs, opts.signal);
      for (let attempt = 1; ; attempt++) {
        if (opts.signal.aborted) return;
        if (await attemptOnce(target, taskId, webhookId, body, attempt)) return;
        const wait = opts.retryDelaysMs[attempt - 1];
        if (wait === undefined) return;
        await opts.clock.sleep(wait, opts.signal);
      }
    } catch (e) {
      if (!opts.signal.aborted) opts.onError(e);
    }
  }

  return { deliver };
}
