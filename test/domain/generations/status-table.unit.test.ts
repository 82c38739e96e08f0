import { describe, expect, test } from "vitest";
import { queuedText, type StatusApi, showStatus, statusView } from "../../../src/domain/generations/status";
import type { Generation } from "../../../src/domain/generations/types";
import { generationStates } from "../../../src/platform/db/schema";
import { translateFor as t, translate } from "../../../src/platform/i18n/i18n";
import { generationRow } from "../../support/generation-row";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

const generation = (patch: Partial<Generation>) => generationRow({ statusMessageId: 10, ...patch });

/** Every state, and what its status message must say. */
const expected: Record<(typeof generationStates)[number], string> = {
  queued: en("gen-queued"),
  submitting: en("gen-queued"),
  pending: en("gen-generating"),
  completed: en("gen-generating"),
  delivering: en("gen-generating"),
  delivered: en("gen-done", { cost: 10 }),
  failed: en("gen-failed", { price: 12 }),
  rejected: en("gen-rejected", { reason: en("reason-invalid-request") }),
  expired: en("gen-expired", { price: 12 }),
  cancelled: en("cancel-status"),
};

describe("the status table", () => {
  test.each([...generationStates])("%s renders from the table", (state) => {
    const view = statusView(generation({ state, charged: state === "delivered" ? 10 : null }), t);
    expect(view).toEqual({ text: expected[state] });
  });

  test("Done carries no buttons: the result's own are under the result", async () => {
    const calls: Array<{ text: string; other: unknown }> = [];
    const api = {
      editMessageText: async (_chat: number, _message: number, text: string, other?: unknown) =>
        void calls.push({ text, other }),
      sendMessage: async (_chat: number, text: string, other?: unknown) => {
        calls.push({ text, other });
        return { message_id: 11 };
      },
    } as unknown as StatusApi;
    const generations = { setStatusShown: async () => {} };
    const done = (patch: Partial<Generation>) =>
      generation({ state: "delivered", charged: 10, chatId: 5, fileIds: ["f1"], ...patch });
    // edited in place, and sent anew where there is no status message
    await showStatus(api, generations, done({}), t);
    await showStatus(api, generations, done({ statusMessageId: null, operation: "video" }), t);
    expect(calls.map((c) => c.text)).toEqual([en("gen-done", { cost: 10 }), en("gen-done", { cost: 10 })]);
    expect(calls.filter((c) => JSON.stringify(c.other ?? {}).includes("reply_markup"))).toEqual([]);
  });

  test("the reasons of an end without a result are told apart", () => {
    const failed = (error: Record<string, unknown>) =>
      statusView(generation({ state: "failed", error, charged: 7 }), t).text;
    expect(failed({ reason: "service_unavailable" })).toBe(en("gen-failed-unavailable", { price: 12 }));
    expect(failed({ reason: "undeliverable" })).toBe(en("gen-undeliverable", { price: 7 }));
    expect(statusView(generation({ state: "delivered", late: true, charged: 0 }), t).text).toBe(
      en("gen-done-late", { cost: 0 }),
    );
  });

  test("the status is in the generation's language", () => {
    expect(statusView(generation({ state: "pending", language: "fa" }), t).text).toBe(
      translate("fa", "gen-generating"),
    );
  });

  test("a long queue shows the user's place", () => {
    expect(queuedText(en, 0)).toBe(en("gen-queued"));
    expect(queuedText(en, 3)).toBe(`${en("gen-queued")}\n${en("cv-queue-position", { position: 4 })}`);
  });

  test("in inline mode the placed message is the status: edited by its inline id, never in a chat, never twice, nothing once delivered", async () => {
    const calls: string[] = [];
    const shown: string[] = [];
    const api = {
      editMessageTextInline: async (id: string, text: string) => void calls.push(`inline ${id}: ${text}`),
      editMessageText: async () => void calls.push("chat edit"),
      sendMessage: async () => void calls.push("chat send"),
    } as unknown as StatusApi;
    const generations = {
      setStatusShown: async (_id: string, text: string | null) => void shown.push(text ?? ""),
    };
    const inline = (patch: Partial<Generation>) =>
      generationRow({ inlineMessageId: "im-1", chatId: 5, statusMessageId: 10, ...patch });

    await showStatus(api, generations, inline({ state: "pending" }), t);
    expect(calls).toEqual([`inline im-1: ${en("gen-generating")}`]);
    expect(shown).toEqual([en("gen-generating")]);
    await showStatus(api, generations, inline({ state: "pending", statusShown: en("gen-generating") }), t);
    expect(calls).toHaveLength(1);
    await showStatus(api, generations, inline({ state: "delivered", charged: 10 }), t);
    expect(calls).toHaveLength(1);
    await showStatus(
      api,
      generations,
      inline({ state: "failed", charged: 7, error: { reason: "undeliverable" } }),
      t,
    );
    expect(calls[1]).toBe(`inline im-1: ${en("inline-undeliverable", { price: 7 })}`);
    await showStatus(
      api,
      generations,
      inline({ state: "failed", price: 12, error: { reason: "task_failed" } }),
      t,
    );
    expect(calls[2]).toBe(`inline im-1: ${en("gen-failed", { price: 12 })}`);
    expect(calls.filter((c) => c.startsWith("chat"))).toEqual([]);
  });
});
