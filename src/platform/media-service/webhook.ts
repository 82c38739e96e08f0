import { z } from "zod";
import { verifyWebhookSignature } from "./webhook-signature";

/**
 * The `task.completed` webhook. Its body shape is not documented, so the task
 * id and metadata are looked for in every common place. The body is only a
 * hint: the task itself is always fetched through the API.
 */

export type ParsedWebhook =
  | {
      ok: true;
      event?: string;
      taskId?: string;
      status?: string;
      metadata?: Record<string, unknown>;
      signature: "valid" | "not_configured";
    }
  | { ok: false; reason: string };

export interface ParseWebhookOptions {
  /** when set, a missing or invalid signature rejects the delivery */
  signingSecret?: string | undefined;
  /** allowed clock skew of a signed timestamp; default 300 s */
  toleranceSeconds?: number;
  now?: () => number;
}

const record = z.record(z.string(), z.unknown());
type Obj = z.infer<typeof record>;

const asObj = (v: unknown): Obj | undefined => {
  const parsed = record.safeParse(v);
  return parsed.success && !Array.isArray(v) ? parsed.data : undefined;
};

const idOf = (v: unknown): string | undefined =>
  typeof v === "string" && v.length > 0 ? v : typeof v === "number" ? String(v) : undefined;

const textOf = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/** Keys under which a task object is commonly nested in an event envelope. */
const taskContainers = ["data", "task", "payload", "object", "result"] as const;

function findTask(body: Obj): { holder: Obj; taskId?: string } {
  for (const key of taskContainers) {
    const inner = asObj(body[key]);
    if (!inner) continue;
    const deeper = asObj(inner.task) ?? asObj(inner.object);
    const holder = deeper ?? inner;
    const taskId = idOf(holder.task_id) ?? idOf(holder.taskId) ?? idOf(holder.id);
    if (taskId) return { holder, taskId };
  }
  // the body is the task itself, or an envelope with the id at the top
  const taskId = idOf(body.task_id) ?? idOf(body.taskId) ?? idOf(body.id);
  return taskId ? { holder: body, taskId } : { holder: body };
}

export function parseWebhook(
  rawBody: string,
  headers: Record<string, string | undefined>,
  opts: ParseWebhookOptions = {},
): ParsedWebhook {
  const lower: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;

  let signature: "valid" | "not_configured" = "not_configured";
  if (opts.signingSecret) {
    const check = verifyWebhookSignature(opts.signingSecret, rawBody, lower, {
      toleranceSeconds: opts.toleranceSeconds ?? 300,
      nowMs: (opts.now ?? Date.now)(),
    });
    if (!check.ok) return { ok: false, reason: `signature: ${check.reason}` };
    signature = "valid";
  }

  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: "body is not JSON" };
  }
  const body = asObj(json);
  if (!body) return { ok: false, reason: "body is not a JSON object" };

  const { holder, taskId } = findTask(body);
  // a task's own `type` ("image", "video") is not an event name
  const type = textOf(body.type);
  const envelopeType = holder !== body || type?.includes(".") ? type : undefined;
  const event =
    textOf(body.event) ?? textOf(body.event_type) ?? envelopeType ?? textOf(lower["x-event-type"]);
  const metadata = asObj(holder.metadata) ?? asObj(body.metadata);
  const status = textOf(holder.status) ?? textOf(body.status);
  return {
    ok: true,
    ...(event !== undefined && { event }),
    ...(taskId !== undefined && { taskId }),
    ...(status !== undefined && { status }),
    ...(metadata !== undefined && { metadata }),
    signature,
  };
}
