import type { ChildProcess } from "node:child_process";
import { inArray, sql } from "drizzle-orm";
import type { Update, User } from "grammy/types";
import { processedUpdates } from "../../src/platform/db/schema";
import { freePort, type Harness } from "./harness";

/** A web process of the fleet: its own port, the same database, Redis and bot token. */
export interface WebProcess {
  url: string;
  child: ChildProcess;
}

export const fleetWebhookSecret = "fleet-webhook-secret-0123456789";

/**
 * Starts `count` web processes in webhook mode (real child processes) against
 * the harness's Postgres, Redis and Telegram stand-in; the harness must run
 * with `noRuntime` and BOT_MODE=webhook, TELEGRAM_WEBHOOK_SECRET=fleetWebhookSecret.
 */
export async function startWebFleet(h: Harness, count: number): Promise<WebProcess[]> {
  const fleet: WebProcess[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const child = await h.spawnRuntime({ ROLE: "web", PORT: String(port) });
    fleet.push({ url: `http://127.0.0.1:${port}`, child });
  }
  return fleet;
}

export async function stopWebFleet(fleet: readonly WebProcess[]): Promise<void> {
  await Promise.all(
    fleet.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

let nextUpdateId = 900_000_000;
let nextMessageId = 1;

/** A text message update from `from` in their private chat, as Telegram would post it. */
export function textUpdate(from: User, text: string): Update {
  const command = /^\/\w+/.exec(text)?.[0];
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: "private", first_name: from.first_name },
      from,
      text,
      ...(command ? { entities: [{ type: "bot_command" as const, offset: 0, length: command.length }] } : {}),
    },
  };
}

/**
 * Posts updates in the order given, as Telegram does with several webhook
 * connections: up to `connections` in flight at once, each to the next web
 * process in turn (a round-robin proxy). Resolves with the answers' statuses.
 */
export async function postUpdates(
  fleet: readonly WebProcess[],
  updates: readonly Update[],
  connections: number,
): Promise<number[]> {
  const statuses: number[] = new Array(updates.length);
  let next = 0;
  async function connection(): Promise<void> {
    while (next < updates.length) {
      const i = next++;
      statuses[i] = await postUpdate(fleet[i % fleet.length]!, updates[i]!);
    }
  }
  await Promise.all(Array.from({ length: connections }, connection));
  return statuses;
}

/** Posts one update to a web process's Telegram webhook; resolves with the answer's status. */
export async function postUpdate(target: WebProcess, update: Update): Promise<number> {
  const res = await fetch(`${target.url}/telegram`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": fleetWebhookSecret,
    },
    body: JSON.stringify(update),
  });
  await res.arrayBuffer();
  return res.status;
}

/** What the bot's own trace (the update journal) says about a set of updates. */
export interface FleetTrace {
  /** updates finished */
  handled: number;
  /** processes that handled at least one */
  processes: number;
  /** pairs of updates sharing a chat or user whose handling overlapped in time */
  concurrent: number;
  /**
   * updates handled after a later one (by update_id) sharing a chat or user, though
   * they were in the journal well before that one was taken: the journal's rule is
   * update_id order among the updates it has
   */
  outOfOrder: number;
  /**
   * updates that arrived after a later update of their chat or user was taken
   * (webhook connections race): handled after it, as nothing could know better
   */
  arrivedLate: number;
}

/**
 * Reads the trace (who handled each update, from when to when, on the database clock)
 * and checks it, pairing updates by their chat as the test sent them (not by the keys
 * the bot gave them).
 */
/** what the start of an insert's transaction may precede its commit by, on a loaded machine */
const raceMicroseconds = 1_000_000;

export async function readTrace(h: Harness, updates: readonly Update[]): Promise<FleetTrace> {
  const chatOf = new Map(updates.map((u) => [u.update_id, u.message?.chat.id]));
  const rows = await h.db.db
    .select({
      id: processedUpdates.updateId,
      by: processedUpdates.handledBy,
      // microseconds: two handlings within one millisecond must still be told apart
      arrived: sql<string>`(extract(epoch from ${processedUpdates.createdAt}) * 1000000)::bigint::text`,
      from: sql<string | null>`(extract(epoch from ${processedUpdates.claimedAt}) * 1000000)::bigint::text`,
      to: sql<string | null>`(extract(epoch from ${processedUpdates.finishedAt}) * 1000000)::bigint::text`,
      state: processedUpdates.state,
    })
    .from(processedUpdates)
    .where(
      inArray(
        processedUpdates.updateId,
        updates.map((u) => u.update_id),
      ),
    );
  const done = rows.flatMap((r) =>
    r.state === "done" && r.from && r.to
      ? [{ ...r, arrived: Number(r.arrived), from: Number(r.from), to: Number(r.to) }]
      : [],
  );
  const byKey = new Map<string, typeof done>();
  for (const r of done) {
    const k = `chat:${chatOf.get(r.id)}`;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const overlapping = new Set<string>();
  const late = new Set<number>();
  const overtaken = new Set<number>();
  for (const list of byKey.values()) {
    const byStart = [...list].sort((a, b) => a.from - b.from);
    for (let i = 1; i < byStart.length; i++) {
      const before = byStart[i - 1]!;
      const now = byStart[i]!;
      if (now.from < before.to) overlapping.add(`${before.id}-${now.id}`);
      if (now.id > before.id) continue;
      // the times are the transactions' starts: an update whose insert began just before the
      // later one was taken may not have been committed yet, so only a clear lead counts
      if (now.arrived < before.from - raceMicroseconds) late.add(now.id);
      else overtaken.add(now.id);
    }
  }
  return {
    handled: done.length,
    processes: new Set(done.map((r) => r.by)).size,
    concurrent: overlapping.size,
    outOfOrder: late.size,
    arrivedLate: overtaken.size,
  };
}
