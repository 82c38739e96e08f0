import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Playground, startPlayground } from "../../src/playground/start";
import { solidPng } from "../../src/playground/telegram/images";
import { freePort } from "../support/harness";
import { ChatPage, openChromium } from "./chromium";

/** the part of HTMLMediaElement the test reads (the project's TypeScript has no DOM types) */
interface MediaElement {
  readyState: number;
  duration: number;
  addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
}

const shots = join(process.cwd(), "test-results", "playground");
const audioFixture = readFileSync(new URL("../../src/simulator/fixtures/audio.mp3", import.meta.url));

/**
 * The playground in real headless Chromium: one sandbox and one browser for
 * the file, one page (and one cast member) per flow.
 */
describe("the playground page in Chromium", () => {
  let playground: Playground;
  let browser: Awaited<ReturnType<typeof openChromium>>;
  const dataDir = mkdtempSync(join(tmpdir(), "msb-playground-"));

  beforeAll(async () => {
    const port = await freePort();
    playground = await startPlayground({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      REDIS_PREFIX: `msb-browser-${process.pid}-${Date.now()}`,
      LOG_LEVEL: "warn",
    });
    browser = await openChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await playground?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openAs(name: string, greeting: RegExp = /credits/): Promise<ChatPage> {
    const page: Page = await browser.context.newPage();
    await page.goto(playground.url);
    const chat = new ChatPage(page);
    await chat.switchUser(name);
    await chat.type("/start");
    await chat.waitForBot(greeting);
    return chat;
  }

  test("image: /start, /image, a prompt, option buttons, confirm, and the picture shows", async () => {
    const chat = await openAs("Alex");
    await chat.type("/image");
    await chat.waitForBot("Describe the image");
    await chat.type("a red lighthouse at dusk");
    await chat.waitForBot("🖼 New image");
    await chat.press(/^📐/);
    await chat.waitForBot("Choose the aspect ratio");
    await chat.press(/^(✅ )?16:9/);
    await chat.waitForBot("Aspect ratio: 16:9");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(before);
    await expect.poll(() => photo.textContent()).toContain("lighthouse");
    await chat.screenshot(join(shots, "image.png"));
    // the README shows this one; refreshed on request or when missing
    const readmeShot = join(process.cwd(), "docs", "playground.png");
    if (process.env.UPDATE_SCREENSHOTS || !existsSync(readmeShot)) await chat.screenshot(readmeShot);
  });

  test("dubbing: an attached audio file goes in, dubbed audio comes back and plays", async () => {
    const chat = await openAs("Morgan");
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: audioFixture }]);
    await chat.waitForBot("🎙 Dubbing");
    await chat.press(/^✅ Confirm/);
    const result = chat
      .botMessages()
      .filter({ has: chat.page.locator('[data-testid="audio"] audio') })
      .last();
    await result.waitFor({ timeout: 40_000 });
    // the browser reads the file's length: a real, playable audio file arrived
    const duration = await result
      .locator("audio")
      .evaluate(
        (audio: MediaElement) =>
          new Promise<number>((resolve) =>
            audio.readyState >= 1
              ? resolve(audio.duration)
              : audio.addEventListener("loadedmetadata", () => resolve(audio.duration), { once: true }),
          ),
      );
    expect(duration).toBeGreaterThan(0);
    await expect.poll(() => result.textContent()).toContain("dubbed-en.mp3");
    await chat.screenshot(join(shots, "dub.png"));
  });

  test("edit: an attached photo and a description make an edited picture", async () => {
    const chat = await openAs("Morgan");
    await chat.type("/edit");
    await chat.waitForBot("Send 1 to 3 photos");
    await chat.attach([{ name: "room.png", mimeType: "image/png", buffer: solidPng(640, 480) }]);
    await chat.waitForBot("1 of 3 pictures received");
    await chat.type("make the walls blue");
    await chat.waitForBot("✏️ Photo edit");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(before);
    await expect.poll(() => photo.textContent()).toContain("walls blue");
    await chat.screenshot(join(shots, "edit.png"));
  });

  test("people and places: Sara is answered in Persian; a forum topic gets its own answers", async () => {
    const chat = await openAs("Sara", /اعتبار هدیه/);
    await chat.page.getByRole("button", { name: "# Renders" }).click();
    await chat.page.getByTestId("menu").click();
    await chat.page.getByTestId("command-menu").getByText("/help", { exact: true }).click();
    const answer = await chat.waitForBot(/\/image/);
    await chat.screenshot(join(shots, "group-topic.png"));
    // the answer belongs to the topic: General does not show it
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await answer.waitFor({ state: "detached" });
  });
});
