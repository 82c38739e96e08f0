import { Agent, request as httpRequest } from "node:http";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../src/domain/generations/types";
import { generations, ledgerEntries, orphanTasks } from "../../src/platform/db/schema";
import { signGid } from "../../src/platform/storage/signed-tokens";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";

/**
 * The media webhook with its path secret known: whatever the body, the answer
 * is never a 5xx, the ledger does not move, and no orphan row appears unless
 * the service confirms the task and its gid.
 */
describe("the media webhook under abuse", () => {
  let h: Harness;
  let g: Generation;
  let url: string;
  let realBody: Record<string, unknown>;
  const logs: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "info" } });
    url = `${h.config.publicUrl}/webhooks/media/${h.config.media.webhookSecret}`;
    const user = await startedUser(h);
    await requestImage(user, "a harbour at night");
    g = await generationIn(h, user.id, "delivered");
    realBody = { event: "task.completed", data: h.sim.task(g.taskId!) };
  });
  afterAll(async () => h?.stop());

  const post = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const errorLines = () =>
    logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50).map((l) => l.slice(0, 400));
  const ledgerState = async () => ({
    entries: await h.db.db.$count(ledgerEntries),
    account: await h.runtime.ledger.account(g.userId),
    audit: await h.runtime.ledger.audit(),
  });
  const withTask = (changes: Record<string, unknown>, metadata?: Record<string, unknown>) => {
    const data = realBody.data as Record<string, unknown>;
    return JSON.stringify({
      ...realBody,
      data: {
        ...data,
        ...changes,
        ...(metadata ? { metadata: { ...(data.metadata as object), ...metadata } } : {}),
      },
    });
  };

  test("item 3: the inputs that answered 500 now get a 4xx", async () => {
    const orphans = await h.db.db.$count(orphanTasks);
    const sig = await post(withTask({}, { sig: "é".repeat(32) }));
    expect(sig.status).toBe(403);
    const nul = await post(withTask({ id: "task\u0000id" }));
    expect(nul.status).toBe(400);
    const long = await post(withTask({ id: "t".repeat(3200) }));
    expect(long.status).toBe(400);
    expect(await h.db.db.$count(orphanTasks)).toBe(orphans);
    expect(errorLines()).toEqual([]);
  });

  /** A POST on a connection of its own (the server may close it without reading an oversized body). */
  function postAlone(chunks: Buffer[], chunked: boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const length = chunks.reduce((n, c) => n + c.length, 0);
      const req = httpRequest(url, {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", ...(chunked ? {} : { "content-length": length }) },
      });
      req.once("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      // the server may answer and close before the whole body is written
      req.once("error", (err) => (req.writableEnded ? undefined : reject(err)));
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  test("item 3: the body cap counts bytes while reading: 2.66 MB of '€' is refused", async () => {
    const euros = JSON.stringify({ event: "task.completed", data: { id: "€".repeat(887_000) } });
    expect(euros.length).toBeLessThan(1024 * 1024);
    expect(await postAlone([Buffer.from(euros)], false)).toBe(413);
    // sent without a length (chunked): the cap holds while the stream is read
    const chunk = Buffer.from("€".repeat(100_000));
    expect(
      await postAlone(
        Array.from({ length: 9 }, () => chunk),
        true,
      ),
    ).toBe(413);
  });

  test("under load: 600 hostile webhooks at once, 5 MB bodies among them, on pooled connections: every one gets its 4xx, none a 5xx or a reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const big = Buffer.alloc(5 * 1024 * 1024, 0x61);
    /** one POST on the pool; the status, or the error the client met (a reset, EPIPE) */
    const send = (body: Buffer, chunked: boolean) =>
      new Promise<number | string>((resolve) => {
        const req = httpRequest(url, {
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            ...(chunked ? {} : { "content-length": body.length }),
          },
        });
        req.once("response", (res) => {
          res.resume();
          res.once("end", () => resolve(res.statusCode ?? 0));
        });
        req.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        if (chunked) {
          for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
          req.end();
        } else req.end(body);
      });
    const kinds = [
      () => send(Buffer.from("{not json"), false),
      () => send(Buffer.from(withTask({ id: "t".repeat(3200) })), false),
      () => send(Buffer.from(withTask({}, { sig: "x".repeat(64) })), true),
      () => send(big, false),
      () => send(big, true),
    ];
    try {
      const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => kinds[i % kinds.length]!()));
      const counts = new Map<number | string, number>();
      for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
      expect(Object.fromEntries(counts)).toEqual({ 400: 240, 403: 120, 413: 240 });
    } finally {
      agent.destroy();
    }
    expect(errorLines()).toEqual([]);
  }, 120_000);

  test("item 4: a replayed real body with another task id records no orphan unless the service confirms it", async () => {
    const orphans = await h.db.db.$count(orphanTasks);
    for (const id of ["replayed-1", "replayed-2", `${g.taskId}x`, "00000000-0000-0000-0000-000000000000"]) {
      const res = await post(withTask({ id }));
      expect(res.status).toBe(200);
    }
    expect(await h.db.db.$count(orphanTasks)).toBe(orphans);
    // a genuine second task carrying the gid (the service ran a duplicate): recorded once confirmed
    const duplicate = await h.runtime.media.createImage(
      { prompt: "a harbour at night", metadata: { gid: g.id, sig: signGid(h.config.signingSecret, g.id) } },
      { idempotencyKey: `duplicate-${g.id}` },
    );
    const res = await post(withTask({ id: duplicate.id }));
    expect(res.status).toBe(200);
    await eventually(async () => ((await h.db.db.$count(orphanTasks)) === orphans + 1 ? true : undefined));
    expect(errorLines()).toEqual([]);
  });

  test("item 4: a body about a generation older than a week is ignored without asking the service", async () => {
    const [row] = await h.db.db.select().from(generations).where(eq(generations.id, g.id));
    await h.db.db
      .update(generations)
      .set({ createdAt: new Date(h.clock.now() - 8 * 24 * 3600 * 1000) })
      .where(eq(generations.id, g.id));
    try {
      const asked = () => h.sim.requests.filter((r) => r.path.startsWith("/api/v1/tasks/")).length;
      const before = asked();
      const res = await post(withTask({ id: "replayed-much-later" }));
      expect(await res.json()).toEqual({ ok: true, ignored: "too old" });
      expect(asked()).toBe(before);
    } finally {
      await h.db.db.update(generations).set({ createdAt: row!.createdAt }).where(eq(generations.id, g.id));
    }
  });

  test("property: random bytes, random JSON and mutated real bodies never get a 5xx, move credits or add orphans", async () => {
    const before = await ledgerState();
    const orphansBefore = await h.db.db.$count(orphanTasks);
    const data = realBody.data as Record<string, unknown>;
    const anyText = fc.string({ unit: "binary", maxLength: 300 });
    const mutated = fc.record({
      id: fc.oneof(anyText, fc.constant(data.id), fc.integer(), fc.constant(null), fc.constant("")),
      gid: fc.oneof(fc.constant(g.id), fc.uuid(), anyText, fc.integer()),
      sig: fc.oneof(fc.constant(signGid(h.config.signingSecret, g.id)), anyText, fc.constant(undefined)),
      status: fc.oneof(fc.constantFrom("completed", "failed", "processing"), anyText),
      drop: fc.subarray(["data", "metadata", "event", "id"]),
    });
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ bytes })),
      fc.jsonValue().map((value) => ({ text: JSON.stringify(value) })),
      mutated.map((m) => {
        const task: Record<string, unknown> = {
          ...data,
          id: m.id,
          status: m.status,
          metadata: { ...(data.metadata as object), gid: m.gid, sig: m.sig },
        };
        if (m.drop.includes("metadata")) delete task.metadata;
        if (m.drop.includes("id")) delete task.id;
        const body: Record<string, unknown> = { event: "task.completed", data: task };
        if (m.drop.includes("event")) delete body.event;
        return { text: JSON.stringify(m.drop.includes("data") ? task : body) };
      }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (b) => {
        const res = await post("bytes" in b ? b.bytes : b.text);
        await res.arrayBuffer();
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
    expect(await ledgerState()).toEqual(before);
    expect(await h.db.db.$count(orphanTasks)).toBe(orphansBefore);
    expect(errorLines()).toEqual([]);
  });
});
