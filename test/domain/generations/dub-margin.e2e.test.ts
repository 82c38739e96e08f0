import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import { probe, speechLike } from "../../support/media-files";
import { byData, plain, says } from "../../support/messages";

/**
 * The case, end to end with real ffmpeg: a 12-minute and a 50-minute
 * dub in parts, then /stats as the admin. The service (the simulator) bills
 * each part per started minute of the length it measures; the margin must
 * not go below zero for either. Prices come from the price table.
 */
const prices = createPrices(loadPriceTable());
const shownFor = (seconds: number) => {
  const q = quote(prices, { operation: "dub", durationSeconds: seconds });
  if (!q.ok) throw new Error("no dubbing price");
  return q;
};
const isPanel = (m: BotMessage) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(byData("cv:ok"));
/** The first user a fresh stand-in makes has this id: the admin here. */
const adminId = 5_000_000_001;

describe("the operator's margin on dubs in parts", () => {
  let h: Harness;
  let dir: string;
  let admin: TestUser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-margin-"));
    await speechLike(join(dir, "lecture.mp3"), 12 * 60);
    await speechLike(join(dir, "seminar.mp3"), 50 * 60);
    h = await startHarness({ env: { WELCOME_CREDITS: "0", ADMIN_IDS: String(adminId) } });
    admin = h.tg.user({ language: "en", started: true });
    expect(admin.id).toBe(adminId);
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** /stats as the admin: the margin it shows, in credits. */
  async function margin(): Promise<number> {
    const sent = await admin.send("/stats");
    const answer = await admin.waitFor((m) => says("Margin:")(m), { after: sent });
    const found = /Margin: ([-−]?)([\d,]+) credits/.exec(plain(answer.text));
    if (!found) throw new Error(`no margin in ${answer.text}`);
    return (found[1] ? -1 : 1) * Number(found[2]!.replace(/,/g, ""));
  }

  async function dub(name: string, minutes: number, parts: number) {
    const user = h.tg.user({ language: "en", started: true });
    const path = join(dir, name);
    const shown = shownFor(minutes * 60);
    await h.runtime.ledger.grant({
      userId: user.id,
      amount: shown.credits + 100,
      key: `dub-margin-${user.id}`,
    });
    await user.send("/dub");
    await user.waitFor(says("Send the audio or video to dub"));
    await user.sendAudio({ path, duration: minutes * 60 });
    const panel = await user.waitFor(
      (m) => isPanel(m) && says(`Length: ${minutes} min 0 s, dubbed in ${parts} parts`)(m),
    );
    // one honest price: "up to" exactly where the charge can fall below it
    expect(plain(panel.text)).toContain(
      shown.upTo ? `Price: up to ${shown.credits} credits` : `Price: ${shown.credits} credits`,
    );
    await user.press(byData("cv:ok"), { message: panel });
    await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 600_000 });
    const done = await generationIn(h, user.id, "delivered");
    expect(done.price).toBe(shown.credits);
    expect(h.sim.tasks().filter((t) => t.metadata?.gid === done.id)).toHaveLength(parts);
    await eventually(async () => ((await h.runtime.ledger.account(user.id)).held === 0 ? true : undefined));
    return { done, shown, path };
  }

  /** What the service billed for the parts ≤ what the user paid ≤ what was shown and held. */
  async function billedWithin({ done, shown, path }: Awaited<ReturnType<typeof dub>>) {
    expect(done.serviceCredits ?? Number.NaN).toBeLessThanOrEqual(done.charged ?? 0);
    expect(done.charged).toBeLessThanOrEqual(shown.credits);
    // and the user paid the least the service can bill for this file: a minute per started minute of it
    const least = prices.dub((await probe(path)).seconds);
    expect(least.ok && done.charged).toBe(least.ok ? least.credits : 0);
  }

  test("a 12-minute dub, then /stats: margin ≥ 0; a 50-minute dub, then /stats: margin ≥ 0 for it too", async () => {
    expect(await margin()).toBe(0);
    const twelve = await dub("lecture.mp3", 12, 3);
    const afterTwelve = await margin();
    expect(afterTwelve, "margin after the 12-minute dub").toBeGreaterThanOrEqual(0);
    await billedWithin(twelve);
    const fifty = await dub("seminar.mp3", 50, 11);
    const afterFifty = await margin();
    expect(afterFifty - afterTwelve, "margin of the 50-minute dub").toBeGreaterThanOrEqual(0);
    await billedWithin(fifty);
  }, 900_000);
});
