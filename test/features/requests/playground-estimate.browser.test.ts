import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pageShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";
import { speechLike } from "../../support/media-files";

/**
 * The case in the playground, in Chromium, on the real clock: after a
 * 12-minute dub, a 50-minute one in 11 parts. Its status, as the page shows it,
 * counts down about how long is left, within a factor of two of the time that
 * really passed from then to the result.
 */
describe("a long dub's estimate in the playground", () => {
  const suite = playgroundSuite("playground-estimate");
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-playground-estimate-"));
    await speechLike(join(dir, "lecture.mp3"), 12 * 60);
    await speechLike(join(dir, "seminar.mp3"), 50 * 60);
  }, 120_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  /** Dubs the file; records every text of its status with the time the page showed it, and when the result came. */
  async function dub(chat: ChatPage, name: string, minutes: number, parts: number) {
    const results = await chat
      .botMessages()
      .filter({ has: chat.page.locator('[data-testid="audio"]') })
      .count();
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    await chat.attach([{ name, mimeType: "audio/mpeg", buffer: await readFile(join(dir, name)) }]);
    await chat.waitForBot(`Length: ${minutes} min 0 s, dubbed in ${parts} parts`);
    await chat.press(/^✅ Confirm/);
    const shown: Array<{ at: number; text: string }> = [];
    const result = chat.botMessages().filter({ has: chat.page.locator('[data-testid="audio"]') });
    const deadline = Date.now() + 240_000;
    let shotTaken = false;
    while ((await result.count()) === results) {
      if (Date.now() > deadline) throw new Error(`no result for ${name}`);
      const status = chat.botMessage("⏱");
      const text = (await status.count()) > 0 ? ((await status.textContent()) ?? "") : "";
      if (text && shown.at(-1)?.text !== text) {
        shown.push({ at: Date.now(), text });
        if (!shotTaken && minutes === 50 && /Dubbing part \d+ of 11.*About \d+ minutes? left/s.test(text)) {
          await pageShot(chat, "dub-estimate");
          shotTaken = true;
        }
      }
      await chat.page.waitForTimeout(250);
    }
    return { shown, doneAt: Date.now() };
  }

  test("after a 12-minute dub, a 50-minute one counts down, within a factor of two at each step", async () => {
    const chat = await suite.chatAs("Morgan");
    const whoami = (await chat.page.getByTestId("whoami").textContent()) ?? "";
    const [, username] = /^@(\w+)/.exec(whoami) ?? [];
    // Morgan is the playground's admin: credits for both dubs
    await chat.type(`/grant @${username} 2000`);
    await chat.waitForBot(/Give 2,?000 credits to/);
    await chat.press(/^✅ Confirm$/);
    await chat.waitForBot(/Gave 2,?000 credits/);

    await dub(chat, "lecture.mp3", 12, 3);
    const { shown, doneAt } = await dub(chat, "seminar.mp3", 50, 11);
    const steps = shown.map(({ at, text }) => ({ text, real: (doneAt - at) / 1000 }));
    const report = steps.map((s) => `${s.text} (real: ${Math.round(s.real)} s)`).join("\n");
    // what is left, in minutes: "about N minutes left", or 0 for "less than a minute left"
    const minutes = steps.flatMap((s) => {
      const said = /About (\d+) minutes? left/.exec(s.text);
      if (said) return [{ ...s, minutes: Number(said[1]) }];
      return s.text.includes("Less than a minute left") ? [{ ...s, minutes: 0 }] : [];
    });
    // it counts down
    expect(new Set(minutes.map((m) => m.minutes)).size, report).toBeGreaterThanOrEqual(2);
    expect(
      minutes.map((m) => m.minutes),
      report,
    ).toEqual(minutes.map((m) => m.minutes).sort((a, b) => b - a));
    expect(
      steps.some((s) => s.text.includes("longer than usual")),
      report,
    ).toBe(false);
    // within a factor of two of what was really left (said in whole minutes: ±30 s)
    for (const m of minutes) {
      const most = m.minutes === 0 ? 60 : m.minutes * 60 + 30;
      const least = m.minutes === 0 ? 0 : Math.max(30, m.minutes * 60 - 30);
      expect(most, `${m.text}\n${report}`).toBeGreaterThanOrEqual(m.real / 2);
      expect(least, `${m.text}\n${report}`).toBeLessThanOrEqual(m.real * 2);
    }
  }, 600_000);
});
