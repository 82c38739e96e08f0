import { afterEach, describe, expect, test, vi } from "vitest";
import { outageLog } from "../../../src/platform/lib/outage-log";
import { captureLogs } from "../../support/log-capture";

describe("outageLog", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("one warning when a connection starts failing, then one a minute with how many followed", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { logger, lines } = captureLogs();
    const onError = outageLog(logger, "Redis");
    for (let i = 0; i < 300; i++) {
      onError(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
      vi.advanceTimersByTime(100);
    }
    // 30 s of failures: one line
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: "Redis: connection failing, retrying" });
    vi.advanceTimersByTime(31_000);
    onError(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 40, repeated: 299 });
  });
});
