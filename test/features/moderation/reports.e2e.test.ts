import { eq } from "drizzle-orm";
import type { Message } from "grammy/types";
import { describe, expect, test } from "vitest";
import type { BotMessage, TestGroup, TestUser } from "../../../sandbox/playground/telegram";
import { ledgerEntries, resultReports, users } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { adminId, adminSuite } from "../../support/admin-suite";
import { eventually, generationIn, type Harness, startedUser } from "../../support/harness";
import { buttons, byData, hasData } from "../../support/messages";
import { appClient } from "../../support/miniapp";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

/** Issue 52, reports: a member reports a result in a group; the admins get it and act on it, each action recorded. */
describe("reports of results in groups", () => {
  let h: Harness;
  let admin: TestUser;

  adminSuite({}, (s) => {
    h = s.h;
    admin = s.admin;
  });

  /** `prompt` made as a picture by `maker` in `group`: the delivered result message. */
  async function madeInGroup(maker: TestUser, group: TestGroup, prompt: string): Promise<BotMessage> {
    const asked = await maker.sendIn(group, `/image ${prompt}`);
    const panel = await maker.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")) ?? false,
      { in: group, after: asked.message_id },
    );
    await maker.press(/✅/, { message: panel, in: group });
    return maker.waitFor((m) => Boolean(m.photo) && (m.caption ?? "").includes(prompt), {
      in: group,
      after: asked.message_id,
      timeoutMs: 20_000,
    });
  }

  async function report(member: TestUser, group: TestGroup, result: Message): Promise<string | undefined> {
    const id = await member.press(/Report/, { message: result, in: group });
    return (await eventually(async () => member.callbackAnswer(id))).text;
  }

  /** The admin's report message about `prompt`, and the admin's answer to pressing `label` on it. */
  async function adminPress(reportMessage: BotMessage, label: RegExp, answer: string): Promise<BotMessage> {
    const before = admin.messages().length;
    await admin.press(label, { message: reportMessage });
    return admin.waitFor((m) => m.text === answer, { after: admin.messages()[before - 1]?.message_id ?? 0 });
  }

  const reportFor = (prompt: string) =>
    admin.waitFor((m) => (m.text?.includes("⚠️") ?? false) && (m.text?.includes(prompt) ?? false));
  const reportRow = async (generationId: string) =>
    (await h.db.db.select().from(resultReports).where(eq(resultReports.generationId, generationId)))[0];

  test("a member's report reaches the admin with the result, maker and prompt; remove, refund and ban each work and are recorded", async () => {
    const maker = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ title: "Night owls", members: [maker, member] });
    const prompt = "a lantern festival on the river";
    const result = await madeInGroup(maker, group, prompt);
    const g = await generationIn(h, maker.id, "delivered");

    expect(await report(member, group, result)).toBe(en("report-thanks"));
    expect(await report(member, group, result)).toBe(en("report-already"));
    const shown = await reportFor(prompt);
    expect(shown.text).toBe(
      en("report-admin", {
        group: "Night owls",
        maker: `${maker.id} (${maker.info.first_name})`,
        operation: "image",
        price: g.charged ?? -1,
        prompt,
        reporter: `${member.id} (${member.info.first_name})`,
      }),
    );
    // the result itself, just before the report
    const copies = admin.messages().filter((m) => Boolean(m.photo));
    expect(copies.length).toBeGreaterThan(0);
    expect(await reportRow(g.id)).toMatchObject({
      state: "open",
      makerId: maker.id,
      reporterIds: [member.id],
    });

    // the Mini App's admin tab lists it while it is open; a member's app does not
    const listed = await appClient(h, admin).get<{ reports: { generationId: string; prompt: string }[] }>(
      "/admin/reports",
    );
    expect(listed.status).toBe(200);
    expect(listed.body.reports).toEqual(
      expect.arrayContaining([expect.objectContaining({ generationId: g.id, prompt })]),
    );
    expect((await appClient(h, member).get("/admin/reports")).status).toBe(404);

    const reportMessage = shown;
    await adminPress(reportMessage, /Remove from the group/, en("report-removed", { count: 1 }));
    expect(group.messages().some((m) => m.message_id === result.message_id)).toBe(false);
    await adminPress(reportMessage, /Refund/, en("report-refunded", { credits: g.charged ?? -1 }));
    await adminPress(reportMessage, /Refund/, en("report-refund-already"));
    const refunds = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.key, `report-${g.id}`));
    expect(refunds).toHaveLength(1);
    await adminPress(
      reportMessage,
      /Ban the maker/,
      en("report-banned", { user: `${maker.id} (${maker.info.first_name})` }),
    );
    const [banned] = await h.db.db.select().from(users).where(eq(users.id, maker.id));
    expect(banned?.bannedAt).not.toBeNull();

    const row = await reportRow(g.id);
    expect(row?.state).toBe("closed");
    expect(row?.actions.map((a) => [a.action, a.by, a.outcome])).toEqual([
      ["remove", adminId, "removed"],
      ["refund", adminId, "refunded"],
      ["refund", adminId, "refund-already"],
      ["ban", adminId, "banned"],
    ]);
    // closed: no longer in the Mini App's list
    const after = await appClient(h, admin).get<{ reports: { generationId: string }[] }>("/admin/reports");
    expect(after.body.reports.some((r) => r.generationId === g.id)).toBe(false);
  });

  test("dismiss keeps the result and its charge", async () => {
    const maker = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [maker, member] });
    const prompt = "a quiet orchard at noon";
    const result = await madeInGroup(maker, group, prompt);
    const g = await generationIn(h, maker.id, "delivered");
    await report(member, group, result);
    const shown = await reportFor(prompt);

    await adminPress(shown, /Dismiss/, en("report-dismissed"));
    expect(group.messages().some((m) => m.message_id === result.message_id)).toBe(true);
    expect((await reportRow(g.id))?.actions.map((a) => a.action)).toEqual(["dismiss"]);
    expect(
      await h.db.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.key, `report-${g.id}`)),
    ).toEqual([]);
  });

  test("an album: reported from its actions message, Remove deletes its pictures and that message", async () => {
    const maker = await startedUser(h);
    const member = await startedUser(h);
    const group = h.tg.group({ members: [maker, member] });
    const prompt = "two paper boats on a pond";
    const asked = await maker.sendIn(group, `/image ${prompt}`);
    const panel = await maker.waitFor(hasData("cv:o:n"), { in: group, after: asked.message_id });
    await maker.press(byData("cv:o:n"), { message: panel, in: group });
    const picker = await maker.waitFor(hasData("cv:p:2"), { in: group, after: asked.message_id });
    await maker.press(byData("cv:p:2"), { message: picker, in: group });
    const summary = await maker.waitFor(
      (m) => hasData("cv:ok")(m) && (m.text?.includes("Number of images: 2") ?? false),
      { in: group, after: asked.message_id },
    );
    await maker.press(byData("cv:ok"), { message: summary, in: group });
    const actions = await maker.waitFor((m) => buttons(m).some((b) => /Report/.test(b.text)), {
      in: group,
      after: asked.message_id,
      timeoutMs: 20_000,
    });
    const g = await generationIn(h, maker.id, "delivered");
    expect(g.deliveredMessageIds).toHaveLength(2);
    expect(g.deliveredMessageIds).not.toContain(actions.message_id);

    await report(member, group, actions);
    const shown = await reportFor(prompt);
    await adminPress(shown, /Remove from the group/, en("report-removed", { count: 3 }));
    const left = group.messages().map((m) => m.message_id);
    for (const id of [...(g.deliveredMessageIds ?? []), actions.message_id]) expect(left).not.toContain(id);
  });
});
