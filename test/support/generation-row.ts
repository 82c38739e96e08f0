import { randomUUID } from "node:crypto";
import type { Generation } from "../../src/domain/generations/types";

/** A generations row as Postgres returns it, for code that takes one without a database. */
export function generationRow(patch: Partial<Generation> = {}): Generation {
  const now = new Date();
  return {
    id: randomUUID(),
    requestKey: randomUUID(),
    userId: 42,
    chatId: 42,
    threadId: null,
    replyToMessageId: null,
    statusMessageId: null,
    inlineMessageId: null,
    language: "en",
    operation: "image",
    params: {},
    price: 12,
    discount: 0,
    holdKey: "h",
    state: "queued",
    taskId: null,
    serviceCredits: null,
    outputs: null,
    charged: null,
    error: null,
    attempts: 0,
    deliveryAttempts: 0,
    late: false,
    measuredSeconds: null,
    partsTotal: null,
    partsDone: null,
    statusShown: null,
    notifiedAt: null,
    deliveredMessageIds: null,
    fileIds: null,
    fileKinds: null,
    submittedAt: null,
    deadlineAt: null,
    nextPollAt: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
    ...patch,
  };
}
