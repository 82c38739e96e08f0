import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "grammy/types";
import { afterAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { loadPriceTable } from "../../../src/domain/pricing/prices";
import { translate } from "../../../src/platform/i18n/i18n";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../../support/harness";

/** The first user a fresh stand-in makes has this id: the admin here. */
const adminId = 5_000_000_001;
const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const warned = "prices below the service's cost";
const fixture = (name: string) =>
  readFileSync(new URL(`../../../sandbox/simulator/fixtures/${name}`, import.meta.url));

async function start(env: Record<string, string>, logs: string[]) {
  const h = await startHarness({
    noRuntime: true,
    env: { ADMIN_IDS: String(adminId), LOG_LEVEL: "warn", WELCOME_CREDITS: "500", ...env },
    logs,
  });
  const admin = h.tg.user({ started: true });
  expect(admin.id).toBe(adminId);
  await h.startRuntime();
  await admin.send("/start");
  await admin.waitFor((m) => Boolean(m.text));
  return { h, admin };
}

async function stats(admin: TestUser): Promise<string> {
  const sent = await admin.send("/stats");
  const reply: BotMessage = await admin.waitFor((m) => Boolean(m.text?.includes(en("stats-title"))), {
    after: sent,
  });
  return reply.text ?? "";
}

const warnings = (logs: string[]) =>
  logs
    .map((l) => JSON.parse(l) as { level: number; msg: string; below?: string[] })
    .filter((l) => l.msg.startsWith(warned));

describe("an operator's prices below the service's cost", () => {
  const dir = mkdtempSync(join(tmpdir(), "msb-prices-"));
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("are named by a warning at start-up and in a ⚠️ section of /stats", async () => {
    const table = loadPriceTable();
    const cost = table.serviceCost?.dub?.perMinute ?? 0;
    table.dub.perMinute = cost - 1;
    table.image["gamma-5-pro"] = { ...table.image["gamma-5-pro"], "4K": 1 };
    const file = join(dir, "prices.json");
    writeFileSync(file, JSON.stringify(table));
    const logs: string[] = [];
    const started = await start({ PRICES_FILE: file }, logs);
    h = started.h;
    const lines = warnings(logs);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40); // warn: the bot runs, the operator is told
    expect(lines[0]?.below).toEqual([
      `image gamma-5-pro 4K: 1 < ${table.serviceCost?.image?.["gamma-5-pro"]?.["4K"]}`,
      `dub per minute: ${cost - 1} < ${cost}`,
    ]);
    const text = await stats(started.admin);
    expect(text).toContain(en("stats-below-cost-title", { count: 2 }));
    expect(text).toContain(en("stats-below-cost-line", { choice: "dub per minute", price: cost - 1, cost }));
  }, 120_000);
});

describe("the default prices", () => {
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
  });

  test("warn of nothing, and a tour of every operation ends with a positive margin in /stats", async () => {
    const logs: string[] = [];
    const started = await start({}, logs);
    h = started.h;
    expect(warnings(logs)).toEqual([]);

    const user = await startedUser(h);
    /** sends a request, confirms the offer it brings and waits for its delivery */
    const step = async (send: () => Promise<Message>) => {
      const before = (await h!.runtime.generations.recent(user.id, 50)).length;
      const sent = await send();
      const offer = await user.waitFor(
        (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
        { after: sent },
      );
      await user.press(/✅/, { message: offer });
      await eventually(async () =>
        (await h!.runtime.generations.recent(user.id, 50)).length > before ? true : undefined,
      );
      await generationIn(h!, user.id, "delivered", 90_000);
    };
    await step(() => user.send("/image a neon city in the rain"));
    await step(() => user.sendPhoto({ width: 640, height: 480, caption: "/edit make the walls blue" }));
    await step(async () => {
      const audio = await user.sendAudio({
        bytes: fixture("audio.mp3"),
        fileName: "talk.mp3",
        mimeType: "audio/mpeg",
        duration: 3,
      });
      return user.replyTo(audio, "/dub de");
    });
    await step(() => user.send("/video waves rolling onto a beach at sunset"));

    const text = await stats(started.admin);
    expect(text).not.toContain("⚠️");
    const margin = /Margin: (-?[\d,]+) credits/.exec(text)?.[1];
    expect(margin, text).toBeDefined();
    expect(Number(margin?.replace(/,/g, ""))).toBeGreaterThan(0);
  }, 240_000);
});
