import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness } from "../support/harness";

const password = "dashboard-password-0123";
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

describe("the queue dashboard", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ADMIN_DASHBOARD_PASSWORD: password } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  test("answers 401 without credentials or with wrong ones", async () => {
    const none = await fetch(`${h.runtime.url}/admin/queues`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Basic");
    const wrong = await fetch(`${h.runtime.url}/admin/queues`, {
      headers: { authorization: basic("admin", "nope") },
    });
    expect(wrong.status).toBe(401);
    const stuck = await fetch(`${h.runtime.url}/admin/stuck`);
    expect(stuck.status).toBe(401);
  });

  test("answers 200 with them: the bull-board page, its queues, and the stuck generations", async () => {
    const headers = { authorization: basic("admin", password) };
    const page = await fetch(`${h.runtime.url}/admin/queues`, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    const api = await fetch(`${h.runtime.url}/admin/queues/api/queues`, { headers });
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((q) => q.name).sort()).toEqual(["deliver", "submit", "sync"]);
    const stuck = await fetch(`${h.runtime.url}/admin/stuck`, { headers });
    expect(stuck.status).toBe(200);
    expect(await stuck.json()).toEqual({ stuckAfterMinutes: 30, generations: [] });
  });
});
