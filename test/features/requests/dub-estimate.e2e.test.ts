import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { type Harness, startHarness } from "../../support/harness";
import { speechLike } from "../../support/media-files";
import { byData, plain, says } from "../../support/messages";

/**
 * The case, end to end with real ffmpeg: after a 12-minute dub, a
 * 50-minute one in 11 parts. Its status counts down about how long is left,
 * from the bot's own history per minute of input, and at each part that
 * estimate is within a factor of two of the time it really took from then to
 * the result, both on the harness's clock (the one the estimate reads).
 */
const isPanel = (m: BotMessage) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(byData("cv:ok"));

/** What a status line says is left, in seconds: "About N minutes left", "Less than a minute left". */
function saysLeft(text: string): { min: number; max: number } | undefined {
  const minutes = /About (\d+) minutes? left/.exec(text);
  if (minutes) return { min: Math.max(30, Number(minutes[1]) * 60 - 30), max: Number(minutes[1]) * 60 + 30 };
  if (text.includes("Less than a minute left")) return { min: 0, max: 60 };
  return undefined;
}

describe("a long dub's status says about how long is left", () => {
  let h: Harness;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-dub-estimate-"));
    await speechLike(join(dir, "lecture.mp3"), 12 * 60);
    await speechLike(join(dir, "seminar.mp3"), 50 * 60);
    h = await startHarness({
      // slow enough that the service's minute per part, not this machine's ffmpeg, sets the pace
      clockFactor: 10,
      simulator: { latencyMs: { dub: 60_000 } },
      env: { WELCOME_CREDITS: "0" },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Dubs the file and records, on the harness's clock, every text its status showed, and when the result came. */
  async function dub(user: TestUser, name: string, minutes: number, parts: number) {
    await h.runtime.ledger.grant({ userId: user.id, amount: 1000, key: `dub-estimate-${name}` });
    await user.send("/dub");
    await user.waitFor(says("Send the audio or video to dub"));
    await user.sendAudio({ path: join(dir, name), duration: minutes * 60 });
    const panel = await user.waitFor(
      (m) => isPanel(m) && says(`Length: ${minutes} min 0 s, dubbed in ${parts} parts`)(m),
    );
    const shown: Array<{ at: number; text: string }> = [];
    const record = () => {
      const status = h.tg
        .chat(user.id)
        ?.messages.findLast((m) => m.fromBot && !m.deleted && /⏱|Dubbing part/.test(m.message.text ?? ""));
      const text = plain(status?.message.text ?? "");
      if (text && shown.at(-1)?.text !== text) shown.push({ at: h.clock.now(), text });
    };
    const stop = h.tg.onChange(record);
    try {
      await user.press(byData("cv:ok"), { message: panel });
      await user.waitFor((m) => m.audio !== undefined, { timeoutMs: 600_000, after: panel.message_id });
    } finally {
      stop();
    }
    return { shown, doneAt: h.clock.now() };
  }

  test("after a 12-minute dub, a 50-minute one in 11 parts counts down, within a factor of two at each part", async () => {
    const user = h.tg.user({ language: "en", started: true });
    await dub(user, "lecture.mp3", 12, 3);
    const { shown, doneAt } = await dub(user, "seminar.mp3", 50, 11);

    const estimates = shown.flatMap(({ at, text }) => {
      const left = saysLeft(text);
      return left ? [{ at, text, left, real: (doneAt - at) / 1000 }] : [];
    });
    const report = estimates.map((e) => `${e.text.split("\n").join(" ⏎ ")} (real: ${Math.round(e.real)} s)`);
    // queued, it says how long a dub of its length usually takes: within a factor of two of the whole
    const queued = shown.find(({ text }) => text.includes("Usually takes about"));
    const usual = /Usually takes about (\d+) minutes/.exec(queued?.text ?? "");
    const whole = (doneAt - (queued?.at ?? Number.NaN)) / 1000;
    expect(Number(usual?.[1]) * 60, `${queued?.text}: real ${whole} s`).toBeGreaterThanOrEqual(whole / 2);
    expect(Number(usual?.[1]) * 60, `${queued?.text}: real ${whole} s`).toBeLessThanOrEqual(whole * 2);
    // never past the estimate
    expect(
      shown.some(({ text }) => text.includes("longer than usual")),
      report.join("\n"),
    ).toBe(false);
    // a status for most parts (those of one round may finish within one look)
    const parts = new Set(estimates.map((e) => /Dubbing part (\d+) of 11/.exec(e.text)?.[1]).filter(Boolean));
    expect(parts.size, report.join("\n")).toBeGreaterThanOrEqual(3);
    // it counts down: "about N minutes left", N going down to "less than a minute"
    const minutes = estimates.map((e) => /About (\d+) minutes? left/.exec(e.text)?.[1]).filter(Boolean);
    expect(minutes.length, report.join("\n")).toBeGreaterThanOrEqual(2);
    expect(minutes.map(Number), report.join("\n")).toEqual([...minutes.map(Number)].sort((a, b) => b - a));
    expect(new Set(minutes).size, report.join("\n")).toBeGreaterThanOrEqual(2);
    for (const e of estimates) {
      expect(e.left.max, `${e.text}: real ${e.real} s\n${report.join("\n")}`).toBeGreaterThanOrEqual(
        e.real / 2,
      );
      expect(e.left.min, `${e.text}: real ${e.real} s\n${report.join("\n")}`).toBeLessThanOrEqual(e.real * 2);
    }
    // what it said at each step, and what was really left then
    console.info(report.join("\n"));
  }, 900_000);
});
