import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { TestUser } from "../../sandbox/playground/telegram";
import { type Harness, type HarnessOptions, startHarness } from "./harness";

/** The first user a fresh Telegram stand-in makes: the bot's admin in the suites of `adminSuite`. */
export const adminId = 5_000_000_001;

/**
 * The harness of a file that needs the bot's admin: started before its tests
 * with ADMIN_IDS naming the stand-in's first user (made at once, as one who
 * started the bot), stopped after them; after each test the ledger's audit
 * must be clean. `started` receives the harness and the admin.
 */
export function adminSuite(
  options: HarnessOptions,
  started: (s: { h: Harness; admin: TestUser }) => void,
): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness({ ...options, env: { ...options.env, ADMIN_IDS: String(adminId) } });
    const admin = h.tg.user({ started: true });
    expect(admin.id).toBe(adminId);
    started({ h, admin });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    if (h) expect(await h.runtime.ledger.audit()).toEqual([]);
  });
}
