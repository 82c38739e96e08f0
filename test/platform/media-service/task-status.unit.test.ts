import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { task as taskSchema } from "../../../src/platform/media-service/schemas";
import { classifyTask } from "../../../src/platform/media-service/task-status";

const base = { id: "t", images: [], videos: [], audios: [] };

describe("classifyTask", () => {
  it("completed with outputs is succeeded, with every output list", () => {
    expect(classifyTask({ ...base, status: "completed", images: ["a", "b"], error: null })).toEqual({
      outcome: "succeeded",
      images: ["a", "b"],
      videos: [],
      audios: [],
    });
    expect(classifyTask({ ...base, status: "completed", audios: ["x.mp3"] }).outcome).toBe("succeeded");
  });

  it("completed with no output at all is failed", () => {
    expect(classifyTask({ ...base, status: "completed", error: null })).toMatchObject({ outcome: "failed" });
  });

  it.each([
    "failed",
    "FAILED",
    "error",
    "cancelled",
    "canceled",
    "expired",
    "timed_out",
    "timeout",
    "rejected",
    "processing_failed",
  ])("status %s is failed", (status) => {
    expect(classifyTask({ ...base, status }).outcome).toBe("failed");
  });

  it("a non-null error is failed whatever the status, and its message is the reason", () => {
    expect(
      classifyTask({ ...base, status: "pending", error: { code: "download_failed", message: "404" } }),
    ).toEqual({
      outcome: "failed",
      reason: "download_failed: 404",
      error: { code: "download_failed", message: "404" },
    });
    expect(classifyTask({ ...base, status: "completed", images: ["a"], error: "boom" })).toMatchObject({
      outcome: "failed",
      reason: "boom",
    });
  });

  it.each(["pending", "processing", "queued", "in_progress", "rendering", ""])(
    "status %j is still running",
    (status) => {
      expect(classifyTask({ ...base, status, error: null })).toMatchObject({ outcome: "running" });
    },
  );

  it("never throws on any status string, and only completed-like statuses succeed", () => {
    fc.assert(
      fc.property(fc.string(), (status) => {
        const outcome = classifyTask({ ...base, status, images: ["a"], error: null });
        if (outcome.outcome === "succeeded") {
          expect([
            "completed",
            "complete",
            "succeeded",
            "success",
            "successful",
            "done",
            "finished",
          ]).toContain(status.trim().toLowerCase());
        }
      }),
    );
  });
});

describe("the task schema is tolerant", () => {
  it("keeps unknown fields and unknown statuses, fills missing output lists", () => {
    const t = taskSchema.parse({ id: "a::b", status: "warming_up", progress: 0.4, error: null });
    expect(t).toMatchObject({
      id: "a::b",
      status: "warming_up",
      progress: 0.4,
      images: [],
      videos: [],
      audios: [],
    });
  });

  it("does not crash on odd values: numeric id, null lists, output objects, a string credits field", () => {
    const t = taskSchema.parse({
      id: 42,
      status: "completed",
      images: null,
      videos: [{ url: "https://x/v.mp4" }, 7],
      audios: "https://x/a.mp3",
      credits_reserved: "12",
    });
    expect(t.id).toBe("42");
    expect(t.images).toEqual([]);
    expect(t.videos).toEqual(["https://x/v.mp4"]);
    expect(t.audios).toEqual(["https://x/a.mp3"]);
    expect(t.credits_reserved).toBeUndefined();
    expect(classifyTask(t).outcome).toBe("succeeded");
  });

  it("still needs an id", () => {
    expect(taskSchema.safeParse({ status: "completed" }).success).toBe(false);
  });
});
