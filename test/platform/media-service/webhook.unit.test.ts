import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseWebhook } from "../../../src/platform/media-service/webhook";
import { signWebhook, webhookHeaders } from "../../../src/platform/media-service/webhook-signature";

const task = { id: "dub::1::fa", status: "completed", type: "video", metadata: { gid: "g", chat: "1" } };

describe("parseWebhook finds the task id and metadata in any common shape", () => {
  it.each([
    ["{event, data: task}", { event: "task.completed", data: task }, "task.completed"],
    ["{type, task: {...}}", { type: "task.completed", task }, "task.completed"],
    [
      "{event, id: event id, data: task}",
      { event: "task.completed", id: "evt_9", data: task },
      "task.completed",
    ],
    ["{type, data: {object: task}}", { type: "task.completed", data: { object: task } }, "task.completed"],
    ["the task itself", task, undefined],
    ["{task_id, metadata}", { task_id: task.id, metadata: task.metadata }, undefined],
    ["{taskId, status}", { taskId: task.id, status: "completed", metadata: task.metadata }, undefined],
  ])("%s", (_name, body, event) => {
    const parsed = parseWebhook(JSON.stringify(body), {});
    expect(parsed).toMatchObject({
      ok: true,
      taskId: task.id,
      metadata: task.metadata,
      signature: "not_configured",
    });
    expect(parsed.ok ? parsed.event : "not ok").toBe(event);
  });

  it("a task's own type is not taken for the event", () => {
    const parsed = parseWebhook(JSON.stringify(task), {});
    expect(parsed.ok ? parsed.event : "not ok").toBeUndefined();
  });

  it("refuses what is not a JSON object", () => {
    expect(parseWebhook("not json", {})).toMatchObject({ ok: false });
    expect(parseWebhook("[1,2]", {})).toMatchObject({ ok: false });
  });

  it("a body without any id is ok but has no taskId", () => {
    expect(parseWebhook(JSON.stringify({ event: "task.completed" }), {})).toEqual({
      ok: true,
      event: "task.completed",
      signature: "not_configured",
    });
  });
});

describe("signatures (Standard Webhooks style)", () => {
  const secret = "whsec_c2VjcmV0LWtleS1mb3ItdGVzdHM=";
  const body = JSON.stringify({ event: "task.completed", data: task });
  const now = 1_800_000_000_000;
  const ts = now / 1000;

  it("signs id.timestamp.body with HMAC-SHA256 of the base64 key", () => {
    const expected = createHmac("sha256", Buffer.from("secret-key-for-tests"))
      .update(`msg_1.${ts}.${body}`)
      .digest("base64");
    expect(signWebhook(secret, "msg_1", ts, body)).toBe(`v1,${expected}`);
  });

  it("valid, with header names in any case and among several signatures", () => {
    const h = webhookHeaders(secret, "msg_1", ts, body);
    const headers = {
      "Webhook-Id": h["webhook-id"],
      "Webhook-Timestamp": h["webhook-timestamp"],
      "Webhook-Signature": `v1,AAAA ${h["webhook-signature"]}`,
    };
    expect(parseWebhook(body, headers, { signingSecret: secret, now: () => now })).toMatchObject({
      ok: true,
      signature: "valid",
      taskId: task.id,
    });
  });

  it.each([
    ["a tampered body", (h: Record<string, string>) => ({ h, b: body.replace("fa", "de") })],
    ["a changed id", (h: Record<string, string>) => ({ h: { ...h, "webhook-id": "msg_2" }, b: body })],
    ["a stale timestamp", (h: Record<string, string>) => ({ h, b: body, late: 10 * 60_000 })],
    ["no signature", (h: Record<string, string>) => ({ h: { "webhook-id": h["webhook-id"]! }, b: body })],
  ])("rejected: %s", (_name, change) => {
    const {
      h,
      b,
      late = 0,
    } = change(webhookHeaders(secret, "msg_1", ts, body)) as {
      h: Record<string, string>;
      b: string;
      late?: number;
    };
    expect(parseWebhook(b, h, { signingSecret: secret, now: () => now + late }).ok).toBe(false);
  });

  it("accepts a bare body HMAC in hex from simpler providers", () => {
    const hex = createHmac("sha256", "plain-secret").update(body).digest("hex");
    expect(parseWebhook(body, { "x-signature": hex }, { signingSecret: "plain-secret" })).toMatchObject({
      ok: true,
      signature: "valid",
    });
    expect(
      parseWebhook(body, { "x-signature": hex.replace(/^./, "0") }, { signingSecret: "plain-secret" }).ok,
    ).toBe(hex.startsWith("0"));
  });
});
