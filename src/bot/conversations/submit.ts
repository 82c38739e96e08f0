import { inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { generations as generationsTable } from "../../db/schema";
import type { GenerationParamsInput } from "../../generations/params";
import type { CreateResult, Generations } from "../../generations/service";
import type { PriceQuote } from "../../pricing/prices";
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
  | Exclude<CreateResult, { ok: true }>
  /** create threw (the database was unreachable): nothing is known to exist */
  | { ok: false; reason: "failed" };

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
 * `shown` is the price the panel showed: when the price table changed since
 * (a restart with new prices), nothing is created and the panel shows the new
 * price. When creating fails, the panel comes back (same message, same key).
 */
export async function submitRequest(
  conversation: Conv,
  screen: Screen,
  deps: SubmitDeps,
  who: Requester,
  params: GenerationParamsInput,
  shown: PriceQuote,
): Promise<SubmitOutcome> {
  const { t } = screen;
  const panelId = screen.messageId;
  if (panelId === undefined) throw new Error("submitRequest: no panel message to confirm");
  // a panel that showed no price never charges one (the table may have one by now)
  if (!shown.ok) {
    await screen.close(t("cv-no-price"));
    screen.detach();
    return "stay";
  }
  const ahead = await conversation.external(() => waitingCount(deps.db));
  const status =
    ahead >= longQueue
      ? `${t("gen-queued")}\n${t("cv-queue-position", { position: ahead + 1 })}`
      : t("gen-queued");
  await screen.chatAction("typing");
  await screen.show(status, undefined);
  const result = await conversation.external(async (outer): Promise<Created> => {
    let r: CreateResult;
    try {
      r = await deps.generations.create({
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
        expectedPrice: shown.credits,
      });
    } catch (err) {
      outer.logger.error({ err, userId: who.userId }, "could not create the generation");
      return { ok: false, reason: "failed" };
    }
    if (!r.ok) return r;
    const { generation, created } = r;
    if (created) {
      // the generation exists: the panel must not come back over it
      await deps.generations.setStatusShown(generation.id, status).catch((err: unknown) => {
        outer.logger.warn({ err, generationId: generation.id }, "could not record the status shown");
      });
    }
    return { ok: true, created, id: generation.id };
  });
  if (result.ok) return "done";
  if (result.reason === "failed") return { note: t("error-generic") };
  if (result.reason === "price_changed") return { note: t("cv-price-changed", { price: result.price }) };
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
