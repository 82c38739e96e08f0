import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import type { GenerateResponse } from "../../../src/features/miniapp/contract";
import { generations, holds, promptRefusals } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { adminId, adminSuite } from "../../support/admin-suite";
import { type Harness, startedUser } from "../../support/harness";
import { confirmIn, placeOffer } from "../../support/inline";
import { appClient } from "../../support/miniapp";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const picture = { operation: "image", model: "nano-core-2", imageSize: "1:1", numImages: 1 } as const;

/** Prompt rules (issue 52): refused before any hold on every surface, counted, logged without the prompt. */
describe("refused prompts", () => {
  let h: Harness;
  let admin: TestUser;
  const logs: string[] = [];

  adminSuite(
    {
      env: { REFUSED_PROMPTS: "gore, blood bath", LOG_LEVEL: "info" },
      logs,
    },
    (s) => {
      h = s.h;
      admin = s.admin;
    },
  );

  async function ask(user: TestUser, text: string, start: string) {
    const sent = await user.send(text);
    return user.waitFor((m) => m.text?.startsWith(start), { after: sent });
  }
  /** `text` sent, and ✅ pressed on the offer it got (after `first`, if given); the message it was sent as. */
  async function sendAndConfirm(user: TestUser, text: string, first?: RegExp) {
    const sent = await user.send(text);
    if (first) {
      const offer = await user.waitFor(
        (m) => m.reply_markup?.inline_keyboard.flat().some((b) => first.test(b.text)) ?? false,
        { after: sent },
      );
      await user.press(first, { message: offer });
    }
    const offer = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")) ?? false,
      { after: sent },
    );
    await user.press(/✅/, { message: offer });
    return sent;
  }
  const madeBy = (userId: number) => h.db.db.select().from(generations).where(eq(generations.userId, userId));
  const holdsOf = (userId: number) => h.db.db.select().from(holds).where(eq(holds.userId, userId));
  const refusalsOf = (userId: number) =>
    h.db.db.select().from(promptRefusals).where(eq(promptRefusals.userId, userId));
  const refusedMetric = async () =>
    (await h.runtime.metrics.registry.getSingleMetric("msb_prompts_refused_total")?.get())?.values ?? [];

  test("/moderation lists, adds and removes rules; the settings' rules stay; only admins may", async () => {
    const listed = await ask(admin, "/moderation list", en("moderation-list-title"));
    expect(listed.text).toContain(en("moderation-line-settings", { rule: "gore" }));
    expect(listed.text).toContain(en("moderation-line-settings", { rule: "blood bath" }));

    await ask(admin, "/moderation add Nud*", en("moderation-added", { rule: "nud*" }));
    await ask(admin, "/moderation add nud*", en("moderation-exists", { rule: "nud*" }));
    await ask(admin, "/moderation add ملخ", en("moderation-added", { rule: "ملخ" }));
    await ask(admin, "/moderation remove gore", en("moderation-settings", { rule: "gore" }));
    await ask(admin, "/moderation remove zebra", en("moderation-missing", { rule: "zebra" }));
    await ask(admin, "/moderation remove ملخ", en("moderation-removed", { rule: "ملخ" }));
    await ask(admin, "/moderation frobnicate", en("moderation-usage", { max: 64 }).split("\n")[0] ?? "");
    const again = await ask(admin, "/moderation list", en("moderation-list-title"));
    expect(again.text).toContain(en("moderation-line-admin", { rule: "nud*" }));
    expect(again.text).not.toContain("ملخ");
    expect(logs.some((l) => l.includes("refused prompt rule added") && l.includes(String(adminId)))).toBe(
      true,
    );

    // a user is not told the command exists, and changes nothing
    const user = await startedUser(h);
    const seen = user.messages().length;
    await user.send("/moderation add cats");
    await new Promise((r) => setTimeout(r, 300));
    expect(
      user
        .messages()
        .slice(seen)
        .some((m) => m.text?.includes("cats")),
    ).toBe(false);
    const list = await ask(admin, "/moderation list", en("moderation-list-title"));
    expect(list.text).not.toContain("cats");
  });

  test("the chat, an offer without a command, inline and the Mini App refuse before any hold; counted and logged without the prompt", async () => {
    // the tests run in any order: this one adds its own pattern
    await ask(admin, "/moderation add naked*", en("moderation-added", { rule: "naked*" }));
    const user = await startedUser(h);
    const secret = "a GORE scene by the harbour";
    const before = await refusedMetric();

    // the chat: /image and Confirm
    const sent = await sendAndConfirm(user, `/image ${secret}`);
    await user.waitFor((m) => m.text === en("prompt-refused"), { after: sent });
    // an offer without a command: a pattern an admin added, in another case and form
    const plain = await sendAndConfirm(user, "Nakedness on the beach", /Make a picture/);
    await user.waitFor((m) => m.text === en("prompt-refused"), { after: plain });
    // inline, placed in a group
    const group = h.tg.group({ members: [user] });
    const { inlineMessageId } = await placeOffer(user, "blood  bath at noon", group);
    await confirmIn(user, inlineMessageId);
    await expect
      .poll(() => h.tg.inlineMessage(inlineMessageId)?.text, { timeout: 10_000 })
      .toBe(en("prompt-refused"));
    // the Mini App
    const app = appClient(h, user);
    const made = await app.post<GenerateResponse>("/generate", {
      draft: await app.draft(),
      request: { ...picture, prompt: "gore" },
    });
    expect(made.status).toBe(403);
    expect(made.body).toMatchObject({ error: "refused_prompt" });

    expect(await madeBy(user.id)).toEqual([]);
    expect(await holdsOf(user.id)).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ held: 0, available: 100 });
    const refusals = await refusalsOf(user.id);
    expect(refusals.map((r) => r.rule).sort()).toEqual(["blood bath", "gore", "gore", "naked*"]);
    expect(JSON.stringify(refusals)).not.toContain("harbour");

    const after = await refusedMetric();
    const sum = (values: { value: number }[]) => values.reduce((s, v) => s + v.value, 0);
    expect(sum(after) - sum(before)).toBe(4);
    const logged = logs.filter((l) => l.includes("prompt refused"));
    expect(logged.length).toBeGreaterThanOrEqual(4);
    expect(logs.some((l) => l.includes("harbour") || l.includes("Nakedness") || l.includes("at noon"))).toBe(
      false,
    );
    expect(logged.every((l) => (JSON.parse(l) as { level: number }).level === 30)).toBe(true);

    // a prompt that only contains a refused word inside another word is made
    const fine = await sendAndConfirm(user, "/image a gorey-free landscape with bloodhounds");
    await user.waitFor((m) => Boolean(m.photo), { after: fine });

    // /stats counts the refusals
    const stats = await ask(admin, "/stats", en("stats-title").slice(0, 8));
    expect(stats.text).toContain(en("stats-refused-prompts", { today: 4, week: 4 }));
  });
});
