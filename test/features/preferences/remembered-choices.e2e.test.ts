import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { userPreferences } from "../../../src/platform/db/schema";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../../support/harness";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

const panel = hasData("cv:ok");
// /settings only resets: the options are changed on the panel itself
const savedLine = "Your saved settings · change them below, or /settings to reset";

/**
 * Remembered choices end to end: what a user confirms becomes where their next
 * request starts, /settings shows it in plain words, and a reset forgets it.
 */
describe("remembered choices", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  /** Presses the button with this callback data on the newest message that has it, then waits for `then`. */
  async function tap(user: TestUser, data: string, then?: (m: BotMessage) => unknown): Promise<BotMessage> {
    const before = user.messages().at(-1)?.message_id ?? 0;
    const target = user.messages().filter(hasData(data)).at(-1) ?? (await user.waitFor(hasData(data)));
    await user.press(byData(data), { message: target });
    if (!then) return target;
    return user.waitFor(then, { after: Math.min(before, target.message_id) - 1 });
  }

  const remembered = (userId: number) =>
    h.runtime.db
      .select({ operation: userPreferences.operation, options: userPreferences.options })
      .from(userPreferences)
      .where(eq(userPreferences.userId, userId));

  test("confirmed options start the next /image (with a line saying so); /settings shows and resets them", async () => {
    const user = await startedUser(h);
    await user.send("/image a red lighthouse");
    const first = await user.waitFor(panel);
    // nothing remembered yet: the defaults, and no line about saved settings
    expect(plain(first.text)).toContain("Model: nano-core-2");
    expect(plain(first.text)).not.toContain(savedLine);
    await tap(user, "cv:o:m", says("Choose a model"));
    await tap(user, "cv:p:nano-lite", says("Model: nano-lite"));
    await tap(user, "cv:o:a", says("Choose the aspect ratio"));
    await tap(user, "cv:p:16:9", says("Aspect ratio: 16:9"));
    await tap(user, "cv:o:n", says("How many images"));
    await tap(user, "cv:p:2", says("Number of images: 2"));
    await tap(user, "cv:ok");
    await generationIn(h, user.id, "delivered");
    expect(await remembered(user.id)).toEqual([
      { operation: "image", options: { model: "nano-lite", imageSize: "16:9", numImages: 2 } },
    ]);

    const requestDog = await user.send("/image a dog");
    const next = await user.waitFor(panel, { after: requestDog });
    expect(plain(next.text)).toContain("Model: nano-lite");
    expect(plain(next.text)).toContain("Aspect ratio: 16:9");
    expect(plain(next.text)).toContain("Number of images: 2");
    expect(plain(next.text)).toContain(savedLine);
    await user.press(byData("cv:ok"), { message: next });
    const dog = await eventually(async () => {
      const recent = await h.runtime.generations.recent(user.id, 10);
      return recent.find((g) => (g.params as { prompt?: string }).prompt === "a dog")?.params;
    });
    expect(dog).toMatchObject({ operation: "image", model: "nano-lite", imageSize: "16:9", numImages: 2 });
    await generationIn(h, user.id, "delivered");

    const ask = await user.send("/settings");
    const screen = await user.waitFor(says("Your saved settings"), { after: ask });
    expect(plain(screen.text)).toContain("🖼 Image: nano-lite · 16:9 · 2 images");
    expect(plain(screen.text)).not.toContain("Video");
    expect(buttons(screen).map((b) => b.text)).toEqual(["♻️ Reset image", "♻️ Reset all"]);

    const press = await user.press(byData("st:all"), { message: screen });
    expect((await user.waitForAnswer(press)).text).toContain("Reset");
    // the same message, edited in place
    const edited = await user.waitFor(
      (m) => m.message_id === screen.message_id && says("Nothing remembered")(m),
    );
    expect(buttons(edited)).toEqual([]);
    expect(await remembered(user.id)).toEqual([]);

    const requestBird = await user.send("/image a bird");
    const fresh = await user.waitFor(panel, { after: requestBird });
    expect(plain(fresh.text)).toContain("Model: nano-core-2");
    expect(plain(fresh.text)).toContain("Aspect ratio: 9:16");
    expect(plain(fresh.text)).toContain("Number of images: 1");
    expect(plain(fresh.text)).not.toContain(savedLine);
  });

  test("/settings is in the private command menu in English and Persian", () => {
    expect(h.tg.commandMenu(0, {}).find((c) => c.command === "settings")?.description).toBe(
      "Your saved settings",
    );
    expect(h.tg.commandMenu(0, { language: "fa" }).find((c) => c.command === "settings")?.description).toBe(
      "تنظیمات ذخیره‌شدهٔ شما",
    );
  });

  test("one operation is reset, the others stay; the again button keeps its own options over the remembered ones", async () => {
    const user = await startedUser(h);
    await h.runtime.db.insert(userPreferences).values([
      { userId: user.id, operation: "image", options: { model: "nano-pro", imageSize: "1:1", numImages: 1 } },
      { userId: user.id, operation: "dub", options: { targetLanguage: "de", sourceLanguage: "en" } },
      // a model since removed from the catalog: read as the defaults, never an error
      { userId: user.id, operation: "video", options: { model: "video-z-9", duration: "long" } },
    ]);
    const ask = await user.send("/settings");
    const screen = await user.waitFor(says("Your saved settings"), { after: ask });
    expect(plain(screen.text)).toContain("🖼 Image: nano-pro · 1:1 · 1 image");
    expect(plain(screen.text)).toContain("🎙 Dubbing: into German, from English");
    expect(plain(screen.text)).toContain("🎬 Video: video-a-v3-turbo · 5 s · 720p · 9:16");
    await user.press(byData("st:image"), { message: screen });
    const edited = await user.waitFor(
      (m) => m.message_id === screen.message_id && !says("Image:")(m) && says("Dubbing")(m),
    );
    expect(buttons(edited).some(byData("st:image"))).toBe(false);
    expect((await remembered(user.id)).map((r) => r.operation).sort()).toEqual(["dub", "video"]);

    const dub = await user.send("/dub https://media.example/talk.mp3");
    const dubPanel = await user.waitFor(panel, { after: dub });
    expect(plain(dubPanel.text)).toContain("Dub into: German");
    expect(plain(dubPanel.text)).toContain("Spoken language: English");
    expect(plain(dubPanel.text)).toContain(savedLine);
  });
});
