import { join } from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { ChatPage, type PlaygroundOptions, startBrowserPlayground } from "./chromium";

type Rig = Awaited<ReturnType<typeof startBrowserPlayground>>;

/**
 * One sandbox and one Chromium for a describe block, and the pages its tests
 * open as members of the cast: each page holds an event stream open, so they
 * are closed after each test, or Chromium's six connections per host run out.
 * `options` is read when the playground starts (after the block's earlier hooks).
 */
export function playgroundSuite(name: string, options: () => PlaygroundOptions = () => ({})) {
  let rig: Rig | undefined;
  const pages: Page[] = [];
  const started = () => {
    if (!rig) throw new Error("the playground has not started");
    return rig;
  };
  async function closePages(): Promise<void> {
    for (const page of pages.splice(0)) await page.close();
  }
  beforeAll(async () => {
    rig = await startBrowserPlayground(name, options());
  }, 120_000);
  afterAll(async () => rig?.stop());
  afterEach(closePages);

  return {
    get playground() {
      return started().playground;
    },
    get browser() {
      return started().browser;
    },
    closePages,
    /** A new page, as `name`, after /start and its greeting. */
    async chatAs(
      name: string,
      options: { greeting?: RegExp; size?: { width: number; height: number } } = {},
    ): Promise<ChatPage> {
      const page = await started().browser.context.newPage();
      pages.push(page);
      if (options.size) await page.setViewportSize(options.size);
      await page.goto(started().playground.url);
      const chat = new ChatPage(page);
      await chat.switchUser(name);
      await chat.type("/start");
      await chat.waitForBot(options.greeting ?? /credits|اعتبار/);
      return chat;
    },
  };
}

/** The Mini App opened from the chat's menu button: its frame, once the panel said it is ready. */
export async function openMiniApp(chat: ChatPage): Promise<FrameLocator> {
  await chat.page.getByTestId("menu-app").click();
  await chat.page.locator('[data-testid="mini-app"][data-ready="true"]').waitFor({ timeout: 20_000 });
  const app = chat.page.frameLocator('[data-testid="mini-app-frame"]');
  await app.getByTestId("app").waitFor();
  return app;
}

/** The page, for the run's results (test-results/<results>); with UPDATE_SCREENSHOTS, also in docs/<docs>. */
export async function pageShot(
  chat: ChatPage,
  name: string,
  docs = "playground",
  results = docs,
): Promise<void> {
  await chat.screenshot(join(process.cwd(), "test-results", results, `${name}.png`));
  if (process.env.UPDATE_SCREENSHOTS) await chat.screenshot(join(process.cwd(), "docs", docs, `${name}.png`));
}

/** The Mini App's panel over the chat, as pageShot does the page; docs in docs/mini-app. */
export async function panelShot(chat: ChatPage, name: string, results = "mini-app"): Promise<void> {
  const panel = chat.page.getByTestId("mini-app");
  await panel.screenshot({ path: join(process.cwd(), "test-results", results, `${name}.png`) });
  if (process.env.UPDATE_SCREENSHOTS)
    await panel.screenshot({ path: join(process.cwd(), "docs", "mini-app", `${name}.png`) });
}

/** The balance movements the credits tab lists that a request made: holds, charges, releases. */
export async function spendMovements(app: FrameLocator): Promise<string[]> {
  await app.getByTestId("tab-credits").click();
  await app.getByTestId("movements").waitFor();
  const labels = await app
    .getByTestId("movement")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-label") ?? ""));
  return labels.filter((label) => /^(hold|charge|charge-partial|release)$/.test(label)).sort();
}
