import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { startPlayground } from "../../sandbox/playground/start";

export type PlaygroundOptions = NonNullable<Parameters<typeof startPlayground>[1]>;

import { solidPng } from "../../sandbox/playground/telegram/images";
import { freePort } from "./harness";
import { redisUrl } from "./test-services";

/** Debian's Chromium as root on a build machine: no sandbox, no GPU, nothing fetched in the background. */
export async function openChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "msb-chromium-"));
  // a fresh --user-data-dir: Playwright takes it as the persistent context's directory
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
    viewport: { width: 430, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The sandbox's playground (bot, stand-ins, page) and Chromium, as the browser
 * tests use them: a free port, a data folder and a Redis prefix of their own.
 */
export async function startBrowserPlayground(name: string, options: PlaygroundOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `msb-${name}-`));
  const playground = await startPlayground(
    {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `msb-${name}-${process.pid}-${Date.now()}`,
      LOG_LEVEL: "warn",
    },
    options,
  );
  const browser = await openChromium();
  return {
    playground,
    browser,
    async stop() {
      await browser.close();
      await playground.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The playground page, driven like a person would. */
export class ChatPage {
  constructor(readonly page: Page) {}

  botMessages(): Locator {
    return this.page.locator('[data-testid="message"][data-from="bot"]');
  }

  /** the newest bot message containing this text */
  botMessage(text: string | RegExp): Locator {
    return this.botMessages().filter({ hasText: text }).last();
  }

  async waitForBot(text: string | RegExp, timeout = 20_000): Promise<Locator> {
    const message = this.botMessage(text);
    await message.waitFor({ state: "visible", timeout });
    return message;
  }

  /**
   * Starts noting every text a bot message shows, edits included, from now on;
   * what comes back reads them. A status shown for a moment before its next
   * edit is seen even when a poll of the page would miss it.
   */
  async noteBotTexts(): Promise<() => Promise<string[]>> {
    const key = `__botTexts${Date.now()}`;
    await this.page.evaluate((key) => {
      type El = { textContent: string | null; closest?(selector: string): El | null };
      const page = globalThis as unknown as {
        document: { body: unknown };
        MutationObserver: new (
          callback: (records: Array<{ target: El & { parentElement: El | null } }>) => void,
        ) => { observe(target: unknown, options: object): void };
      } & Record<string, string[]>;
      const seen: string[] = [];
      page[key] = seen;
      new page.MutationObserver((records) => {
        for (const record of records) {
          const target = record.target.closest ? record.target : record.target.parentElement;
          const message = target?.closest?.('[data-testid="message"][data-from="bot"]');
          if (message?.textContent) seen.push(message.textContent);
        }
      }).observe(page.document.body, { subtree: true, childList: true, characterData: true });
    }, key);
    return () =>
      this.page.evaluate((key) => (globalThis as unknown as Record<string, string[]>)[key] ?? [], key);
  }

  async type(text: string): Promise<void> {
    await this.page.getByTestId("composer").fill(text);
    await this.page.getByTestId("composer").press("Enter");
  }

  async switchUser(name: string): Promise<void> {
    const switcher = this.page.getByTestId("user-switcher");
    const value = await switcher.locator("option", { hasText: name }).getAttribute("value");
    await switcher.selectOption(value!);
  }

  /** clicks the newest inline button with this text */
  async press(text: string | RegExp): Promise<void> {
    const button = this.page.locator(".inline-keyboard button").filter({ hasText: text }).last();
    await button.click();
  }

  async attach(
    files: Array<{ name: string; mimeType: string; buffer: Buffer }>,
    caption = "",
  ): Promise<void> {
    await this.page.getByTestId("attach").setInputFiles(files);
    await this.page.getByTestId("attachments").waitFor();
    await this.type(caption);
    await this.page.getByTestId("attachments").waitFor({ state: "detached" });
  }

  /** /edit with one attached picture and a description, confirmed: the edited picture once it is drawn */
  async editPicture(description: string): Promise<Locator> {
    await this.type("/edit");
    await this.waitForBot("Send 1 to 3 photos");
    await this.attach([{ name: "room.png", mimeType: "image/png", buffer: solidPng(640, 480) }]);
    await this.waitForBot("1 of 3 pictures received");
    await this.type(description);
    await this.waitForBot("✏️ Photo edit");
    const before = await this.countPhotos();
    await this.press(/^✅ Confirm/);
    return this.waitForPhoto(before);
  }

  /** /buy, the first pack, Pay on its invoice: the credits added (test Stars) */
  async buyFirstPack(): Promise<void> {
    await this.type("/buy");
    await this.waitForBot("Choose a pack of credits");
    await this.press(/credits · \d+ ⭐/);
    const invoice = this.page.getByTestId("invoice").last();
    await invoice.getByRole("button", { name: /^Pay ⭐️ \d+$/ }).click();
    await this.waitForBot(/credits added/);
  }

  /** waits for a bot photo that the browser actually loaded and drew */
  async waitForPhoto(after: number, timeout = 40_000): Promise<Locator> {
    const photo = this.page
      .locator('[data-testid="message"][data-from="bot"]')
      .filter({ has: this.page.locator('img[data-testid="photo"]') })
      .last();
    // evaluated in the page (this project's TypeScript has no DOM types)
    await this.page.waitForFunction(
      `(() => {
        const images = [...document.querySelectorAll('[data-from="bot"] img[data-testid="photo"]')];
        const last = images.at(-1);
        return images.length > ${after} && last.complete && last.naturalWidth > 0;
      })()`,
      undefined,
      { timeout },
    );
    return photo;
  }

  /** Inline button labels the browser broke inside a word (a line ends between two non-space characters). */
  async labelsBrokenMidWord(): Promise<string[]> {
    return this.page.evaluate(`(() => {
      const broken = [];
      for (const key of document.querySelectorAll('.inline-keyboard .key')) {
        let lastTop;
        let previous = ' ';
        const walker = document.createTreeWalker(key, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          let at = 0;
          for (const ch of node.data) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + ch.length);
            at += ch.length;
            const box = range.getClientRects()[0];
            if (!box) { previous = ' '; continue; }
            if (lastTop !== undefined && box.top > lastTop + 2 && /\\S/.test(previous) && /\\S/.test(ch) && previous !== '-')
              broken.push(key.textContent);
            lastTop = box.top;
            previous = ch;
          }
        }
      }
      return broken;
    })()`);
  }

  /** How far the chat is from its very end, in pixels, and whether its newest button is fully in view. */
  async distanceFromEnd(): Promise<{ gap: number; lastButtonHidden: number }> {
    return this.page.evaluate(`(() => {
      const list = document.querySelector('[data-testid="messages"]');
      const keys = list.querySelectorAll('.inline-keyboard .key');
      const last = keys[keys.length - 1];
      const hidden = last ? Math.max(0, last.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom) : 0;
      return { gap: Math.max(0, Math.round(list.scrollHeight - list.scrollTop - list.clientHeight)), lastButtonHidden: Math.round(hidden) };
    })()`);
  }

  /**
   * Where each of `words` is drawn in an element's text (a bot message's
   * `.text`): the box of its first occurrence after the start of the line
   * holding `line` (the first rectangle, when it wraps). Measured in the page,
   * on the text as laid out.
   */
  async wordBoxes(
    text: Locator,
    line: string,
    words: readonly string[],
  ): Promise<Array<{ word: string; left: number; right: number; top: number }>> {
    // runs in the page: globalThis there is the window (this project's TypeScript has no DOM types)
    return text.evaluate(
      (element, { line, words }) => {
        interface TextNode {
          data: string;
        }
        const { document } = globalThis as unknown as {
          document: {
            createTreeWalker(root: unknown, show: number): { nextNode(): TextNode | null };
            createRange(): {
              setStart(node: TextNode, offset: number): void;
              setEnd(node: TextNode, offset: number): void;
              getClientRects(): ArrayLike<{ left: number; right: number; top: number }>;
            };
          };
        };
        const nodes: Array<{ node: TextNode; start: number }> = [];
        let all = "";
        const walker = document.createTreeWalker(element, 4); // NodeFilter.SHOW_TEXT
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          nodes.push({ node, start: all.length });
          all += node.data;
        }
        const at = (offset: number): [TextNode, number] => {
          const found = nodes.filter((n) => n.start <= offset).at(-1);
          if (!found) throw new Error("no text");
          return [found.node, offset - found.start];
        };
        const lineAt = all.indexOf(line);
        if (lineAt < 0) throw new Error(`no line with ${line}`);
        const from = all.lastIndexOf("\n", lineAt) + 1;
        return words.map((word) => {
          const index = all.indexOf(word, from);
          if (index < 0) throw new Error(`no ${word} on the line with ${line}`);
          const range = document.createRange();
          range.setStart(...at(index));
          range.setEnd(...at(index + word.length));
          const box = range.getClientRects()[0];
          if (!box) throw new Error(`${word} is not drawn`);
          return { word, left: box.left, right: box.right, top: box.top };
        });
      },
      { line, words },
    );
  }

  /** the computed writing direction of an element */
  async directionOf(locator: Locator): Promise<string> {
    // runs in the page: globalThis there is the window
    return locator.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { direction: string } }).getComputedStyle(
          element,
        ).direction,
    );
  }

  async countPhotos(): Promise<number> {
    return this.page.locator('[data-from="bot"] img[data-testid="photo"]').count();
  }

  /**
   * Inline mode in the open chat: "@media_studio_bot <description>", the priced
   * result picked (after `beforePick`), and the message it placed, found by its id.
   */
  async placeInline(description: string, beforePick?: () => Promise<void>): Promise<Locator> {
    await this.page.getByTestId("composer").fill(`@media_studio_bot ${description}`);
    const offer = this.page.getByTestId("inline-result").filter({ hasText: /Generate image · \d+ credits/ });
    await offer.waitFor();
    await beforePick?.();
    await offer.click();
    const placed = this.page
      .getByTestId("message")
      .filter({ has: this.page.getByTestId("via-bot") })
      .filter({ hasText: description })
      .last();
    await placed.waitFor();
    const id = await placed.getAttribute("data-message-id");
    return this.page.locator(`[data-testid="message"][data-message-id="${id}"]`);
  }

  async screenshot(path: string): Promise<void> {
    mkdirSync(dirname(path), { recursive: true });
    await this.page.screenshot({ path });
  }
}
