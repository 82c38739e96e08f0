import { inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { generations as generationsTable } from "../../db/schema";
import type { GenerationParamsInput } from "../../generations/params";
import type { Generations } from "../../generations/service";
import type { SubmitOutcome } from "./panel";
import type { Conv, Screen } from "./screen";

/** From this many requests waiting before the user's, the status shows their place. */
export const longQueue = 3;

export interface SubmitDeps {
  db: Database;
  generations: Pick<Generations, "create" | "setStatusShown">;
}

/** Who asks and where the answer goes; fixed when the conversation starts. */
export interface Requester {
  userId: number;
  language: string;
  chatId: number;
  threadId: number | null;
  replyTo: number | null;
}

type Created =
  | { ok: true; created: boolean; id: string }
  | { ok: false; reason: "insufficient"; price: number; available: number; missing: number }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "no_price" };

async function waitingCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(generationsTable)
    .where(inArray(generationsTable.state, ["queued", "submitting"]));
  return row?.n ?? 0;
}

/**
 * The one spending call of a conversation. The panel turns into the queued
 * status (without buttons) before the generation exists, so the worker's
 * later edits of the same message never race with ours; the key is the panel
 * message, the same on every replay and for every tap on its Confirm.
 */
export async function submitRequest(
  conversation: Conv,
  screen: Screen,
  deps: SubmitDeps,
  who: Requester,
  params: GenerationParamsInput,
): Promise<SubmitOutcome> {
  const { t } = screen;
  const panelId = screen.messageId;
  if (panelId === undefined) throw new Error("submitRequest: no panel message to confirm");
  const ahead = await conversation.external(() => waitingCount(deps.db));
  const status =
    ahead >= longQueue
      ? `${t("gen-queued")}\n${t("cv-queue-position", { position: ahead + 1 })}`
      : t("gen-queued");
  await screen.chatAction("typing");
  await screen.show(status, undefined);
  const result = await conversation.external(async (): Promise<Created> => {
    const r = await deps.generations.create({
      key: `conv-${who.chatId}-${panelId}`,
      userId: who.userId,
      language: who.language,
      chat: {
        chatId: who.chatId,
        threadId: who.threadId,
        replyToMessageId: who.replyTo,
        statusMessageId: panelId,
      },
      params,
    });
    if (!r.ok) return r;
    if (r.created) await deps.generations.setStatusShown(r.generation.id, status);
    return { ok: true, created: r.created, id: r.generation.id };
  });
  if (result.ok) return "done";
  const explanation =
    result.reason === "insufficient"
      ? t("gen-insufficient", { price: result.price, available: result.available, missing: result.missing })
      : result.reason === "no_price"
        ? t("cv-no-price")
        : t("cv-invalid", { problem: result.message });
  await screen.close(explanation);
  screen.detach();
  return "stay";
}
