import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { translate } from "../../src/bot/i18n";
import { broadcastRecipients, broadcasts } from "../../src/db/schema";
import type { TestUser } from "../../src/playground/telegram";
import { eventually, type Harness, startedUser, startHarness } from "../support/harness";

/** The first user a fresh stand-in makes has this id: the admin of these tests. */
const adminId = 5_000_000_001;

const done = (sent: number, failed: number, blocked: number, total: number) =>
  translate("en", "bc-done", { sent, failed, blocked, total });

/** Runs /broadcast through to Send: the message, Preview (albums), an audience, confirm. */
async function broadcastFrom(admin: TestUser, send: () => Promise<unknown>, audience: RegExp = /^Everyone/) {
  await admin.send("/broadcast");
  await admin.waitFor((m) => m.text === translate("en", "bc-ask"));
  await send();
  const pick = await admin.waitFor((m) => m.text?.endsWith(translate("en", "bc-pick-audience")));
  await admin.press(audience, { message: pick });
  const confirm = await admin.waitFor((m) =>
    m.reply_markup?.inline_keyboard.flat().some((b) => b.text.startsWith("✅")),
  );
  await admin.press(/^✅/, { message: confirm });
  return confirm;
}

describe("/broadcast end to end (in process)", () => {
  let h: Harness;
  let admin: TestUser;

  beforeAll(async () => {
    h = await startHarness({
      env: { ADMIN_IDS: String(adminId), TELEGRAM_SENDS_PER_SECOND: "50" },
      timing: { broadcastTickMs: 300, broadcastClaimStaleMs: 2_000 },
    });
    admin = await startedUser(h);
    expect(admin.id).toBe(adminId);
  });
  afterAll(async () => {
    await h?.stop();
  });

  test("a formatted text reaches every user once, the preview first, and the progress ends with the totals", {
    timeout: 60_000,
  }, async () => {
    const users = [await startedUser(h), await startedUser(h), await startedUser(h, "fa")];
    const text = "Big news: *video* is here";
    const confirm = await broadcastFrom(admin, () =>
      admin.send(text, { entities: [{ type: "bold", offset: 10, length: 7 }] }),
    );
    const total = users.length + 1;
    const progress = await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text === done(total, 0, 0, total),
      { timeoutMs: 20_000 },
    );
    expect(progress.reply_markup?.inline_keyboard.flat() ?? []).toEqual([]);
    for (const user of users) {
      const got = user.messages().filter((m) => m.text === text);
      expect(got).toHaveLength(1);
      expect(got[0]!.entities).toEqual([{ type: "bold", offset: 10, length: 7 }]);
    }
    // the admin saw the preview, and is a recipient too
    expect(admin.messages().filter((m) => m.text === text)).toHaveLength(2);
    const [row] = await h.db.db
      .select()
      .from(broadcasts)
      .where(eq(broadcasts.progressMessageId, confirm.message_id));
    expect(row?.state).toBe("done");
    expect(row?.total).toBe(total);
  });
});
