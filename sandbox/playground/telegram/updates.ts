import { setTimeout as sleep } from "node:timers/promises";
import type { Update } from "grammy/types";
import type { Clock } from "../../../src/platform/lib/clock";
import { badRequest, conflict } from "./errors";
import type { TelegramRules } from "./rules";

export type NewUpdate = Omit<Update, "update_id">;

/** Telegram leaves these out unless allowed_updates names them. */
const notByDefault = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

interface Poller {
  resolve(): void;
  reject(err: Error): void;
}

export interface WebhookSettings {
  url: string;
  secretToken?: string;
  maxConnections: number;
  allowedUpdates?: string[];
}

export interface WebhookInfo {
  url: string;
  has_custom_certificate: boolean;
  pending_update_count: number;
  max_connections?: number;
  allowed_updates?: string[];
  last_error_date?: number;
  last_error_message?: string;
}

export interface WebhookDelivery {
  update: Update;
  status: number | "timeout" | "network-error";
  at: number;
}

const updateType = (u: NewUpdate) => Object.keys(u).find((k) => k !== "update_id") ?? "";

/**
 * Long-poll waits and webhook timeouts are transport matters and run in real
 * time, whatever clock the stand-in was given.
 *
 * The queue of updates not yet confirmed, handed out by getUpdates (confirmed
 * by a later offset) or POSTed one at a time, in order, to the webhook
 * (confirmed by a 2xx answer; anything else is retried).
 */
export class UpdateQueue {
  private pending: Update[] = [];
  private nextId: number;
  private allowed: Set<string> | undefined;
  private poller: Poller | undefined;
  private webhook: WebhookSettings | undefined;
  private lastError: { date: number; message: string } | undefined;
  private delivering = false;
  private closed = false;
  private readonly stopped = new AbortController();
  private readonly idleWaiters: Array<() => void> = [];
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly rules: () => TelegramRules,
    private readonly clock: Clock,
    /** executes a method call the bot returned in its webhook answer */
    private readonly webhookReply: (method: string, params: Record<string, unknown>) => Promise<void>,
    firstUpdateId?: number,
  ) {
    this.nextId = firstUpdateId ?? 700_000_000 + Math.floor(Math.random() * 1000) * 1000;
  }

  /** Queues an update; undefined when allowed_updates filters it out (Telegram never creates it). */
  push(update: NewUpdate): Update | undefined {
    const type = updateType(update);
    if (this.allowed ? !this.allowed.has(type) : notByDefault.has(type)) return undefined;
    const full = { update_id: this.nextId++, ...update } as Update;
    this.pending.push(full);
    this.poller?.resolve();
    this.kickWebhook();
    return full;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get mode(): "polling" | "webhook" {
    return this.webhook ? "webhook" : "polling";
  }

  /** Resolves once every update queued so far has been confirmed by the bot. */
  idle(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private confirmUpTo(offset: number): void {
    this.pending = this.pending.filter((u) => u.update_id >= offset);
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.pending.length > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private setAllowed(list: string[] | undefined): void {
    if (list === undefined) return;
    this.allowed = list.length === 0 ? undefined : new Set(list);
  }

  async getUpdates(
    params: { offset?: number; limit?: number; timeout?: number; allowed_updates?: string[] },
    signal?: AbortSignal,
  ): Promise<Update[]> {
    if (this.webhook) {
      throw conflict(
        "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    if (this.poller) {
      this.poller.reject(
        conflict("terminated by other getUpdates request; make sure that only one bot instance is running"),
      );
      this.poller = undefined;
    }
    const { offset } = params;
    if (offset !== undefined && offset < 0) {
      this.pending = this.pending.slice(offset);
      this.notifyIdle();
    } else if (offset !== undefined) {
      this.confirmUpTo(offset);
    }
    this.setAllowed(params.allowed_updates);
    const limit = params.limit === undefined || params.limit <= 0 ? 100 : Math.min(100, params.limit);
    const timeoutMs = Math.max(0, params.timeout ?? 0) * 1000;
    if (this.pending.length === 0 && timeoutMs > 0 && this.rules().holdLongPolls && !this.closed) {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          if (this.poller === poller) this.poller = undefined;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        const poller: Poller = {
          resolve: done,
          reject: (err) => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            reject(err);
          },
        };
        this.poller = poller;
        signal?.addEventListener("abort", done);
      });
    }
    return this.pending.slice(0, limit);
  }

  setWebhook(params: {
    url: string;
    secret_token?: string;
    max_connections?: number;
    allowed_updates?: string[];
    drop_pending_updates?: boolean;
  }): void {
    if (params.url === "") {
      this.deleteWebhook(params.drop_pending_updates ?? false);
      return;
    }
    let url: URL;
    try {
      url = new URL(params.url);
    } catch {
      throw badRequest("bad webhook: Failed to resolve host: Name or service not known");
    }
    if (this.rules().webhook.requireHttps && url.protocol !== "https:") {
      throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
    }
    if (params.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(params.secret_token)) {
      throw badRequest("secret token contains unallowed characters");
    }
    const maxConnections = params.max_connections ?? 40;
    if (maxConnections < 1 || maxConnections > 100) throw badRequest("bad webhook: invalid max_connections");
    if (params.drop_pending_updates) this.dropPending();
    this.setAllowed(params.allowed_updates);
    this.webhook = {
      url: params.url,
      maxConnections,
      ...(params.secret_token ? { secretToken: params.secret_token } : {}),
      ...(params.allowed_updates ? { allowedUpdates: params.allowed_updates } : {}),
    };
    this.lastError = undefined;
    this.poller?.resolve();
    this.kickWebhook();
  }

  deleteWebhook(dropPending: boolean): void {
    this.webhook = undefined;
    if (dropPending) this.dropPending();
  }

  private dropPending(): void {
    this.pending = [];
    this.notifyIdle();
  }

  webhookInfo(): WebhookInfo {
    const info: WebhookInfo = {
      url: this.webhook?.url ?? "",
      has_custom_certificate: false,
      pending_update_count: this.pending.length,
    };
    if (this.webhook) {
      info.max_connections = this.webhook.maxConnections;
      if (this.webhook.allowedUpdates) info.allowed_updates = this.webhook.allowedUpdates;
    }
    if (this.lastError) {
      info.last_error_date = Math.floor(this.lastError.date / 1000);
      info.last_error_message = this.lastError.message;
    }
    return info;
  }

  private kickWebhook(): void {
    if (!this.webhook || this.delivering || this.closed || this.pending.length === 0) return;
    this.delivering = true;
    void this.deliverAll().finally(() => {
      this.delivering = false;
      this.kickWebhook();
    });
  }

  private async deliverAll(): Promise<void> {
    let failures = 0;
    while (this.webhook && !this.closed && this.pending.length > 0) {
      const webhook = this.webhook;
      const update = this.pending[0]!;
      const outcome = await this.post(webhook, update);
      this.deliveries.push({ update, status: outcome.status, at: this.clock.now() });
      if (outcome.ok) {
        failures = 0;
        if (this.pending[0] === update) this.pending.shift();
        this.notifyIdle();
        if (outcome.reply)
          await this.webhookReply(outcome.reply.method, outcome.reply.params).catch(() => {});
        continue;
      }
      failures += 1;
      this.lastError = { date: this.clock.now(), message: outcome.message };
      const { retryDelayMs, maxRetryDelayMs } = this.rules().webhook;
      await sleep(Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1)), undefined, {
        signal: this.stopped.signal,
      }).catch(() => {});
    }
  }

  private async post(
    webhook: WebhookSettings,
    update: Update,
  ): Promise<
    | { ok: true; status: number; reply?: { method: string; params: Record<string, unknown> } }
    | { ok: false; status: WebhookDelivery["status"]; message: string }
  > {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (webhook.secretToken) headers["x-telegram-bot-api-secret-token"] = webhook.secretToken;
    try {
      const response = await fetch(webhook.url, {
        method: "POST",
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.any([AbortSignal.timeout(this.rules().webhook.timeoutMs), this.stopped.signal]),
      });
      const body = await response.text();
      if (response.status < 200 || response.status > 299) {
        return {
          ok: false,
          status: response.status,
          message: `Wrong response from the webhook: ${response.status}`,
        };
      }
      return {
        ok: true,
        status: response.status,
        ...webhookReplyOf(response.headers.get("content-type"), body),
      };
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      return timeout
        ? { ok: false, status: "timeout", message: "Read timeout expired" }
        : { ok: false, status: "network-error", message: "Connection refused" };
    }
  }

  close(): void {
    this.closed = true;
    this.stopped.abort();
    this.poller?.resolve();
  }
}

function webhookReplyOf(
  contentType: string | null,
  body: string,
): { reply?: { method: string; params: Record<string, unknown> } } {
  if (!contentType?.includes("application/json") || body === "") return {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "method" in parsed && typeof parsed.method === "string") {
      const { method, ...params } = parsed as Record<string, unknown>;
      return { reply: { method: method as string, params } };
    }
  } catch {
    // not a method call: Telegram ignores the body
  }
  return {};
}
