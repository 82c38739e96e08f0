import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ChatPage, openChromium } from "../support/chromium";
import { freePort } from "../support/harness";

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The README's first command, as a newcomer would copy it (the comment dropped). */
function readmeFirstCommand(readme: string): string {
  const block = /```bash\n([^\n]+)/.exec(readme);
  if (!block) throw new Error("the README has no bash block");
  return block[1]!.replace(/\s+#.*$/, "").trim();
}

/** Nothing of this machine's bot settings leaks in: only what npm and a shell need. */
function newcomerEnv(port: number): NodeJS.ProcessEnv {
  const npm = Object.entries(process.env).filter(
    ([k]) => /^npm_config_/i.test(k) && !/^npm_config_(prefix|local_prefix|user_agent|node_gyp)$/i.test(k),
  );
  // a newcomer's shell: without the node_modules/.bin (and its Node 24) that npm test runs under
  const path = (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => !/node_modules[\\/]\.bin|node-gyp-bin/.test(dir))
    .join(":");
  return {
    ...Object.fromEntries(npm),
    PATH: path,
    HOME: process.env.HOME ?? "",
    // npm may use its local cache first: the machine has no route to the public registry
    npm_config_prefer_offline: "true",
    PORT: String(port),
    HOST: "127.0.0.1",
    // the machine's Redis is shared with other test runs
    REDIS_PREFIX: `msb-fresh-${process.pid}-${Date.now()}`,
  };
}

/**
 * A newcomer: `git clone`, the README's first command, open the address it
 * prints, and make a first image with clicks only. Then Ctrl-C stops it all.
 */
describe("a fresh clone", () => {
  const dir = mkdtempSync(join(tmpdir(), "msb-clone-"));
  let child: ChildProcess | undefined;
  let browser: Awaited<ReturnType<typeof openChromium>> | undefined;
  afterAll(async () => {
    await browser?.close();
    if (child?.pid && groupAlive(child.pid)) process.kill(-child.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test("the README's first command gives a playground where clicks alone make an image", async () => {
    const clone = join(dir, "media-studio-bot");
    execFileSync("git", ["clone", "--quiet", process.cwd(), clone]);
    const command = readmeFirstCommand(readFileSync(join(clone, "README.md"), "utf8"));
    expect(command).toMatch(/^npm install && npm (start|run sandbox)$/);

    const port = await freePort();
    // its own process group: Ctrl-C in a terminal reaches the whole tree (sh, npm, node)
    child = spawn("sh", ["-c", command], { cwd: clone, env: newcomerEnv(port), detached: true });
    let output = "";
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const deadline = Date.now() + 480_000;
    let address: string | undefined;
    while (!address) {
      address = /Open (http:\/\/\S+) in a browser/.exec(output)?.[1];
      if (address) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no address printed:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).not.toContain("BOT_TOKEN is required");
    // npm install ran on the machine's Node, the bot on the project's own
    expect(output).not.toContain("EBADENGINE");
    expect(output).toMatch(/sandbox mode on Node v24\./);
    // a newcomer reads success: plain lines, no JSON log record, no stack trace
    const startup = output.slice(0, output.indexOf("Open http"));
    expect(startup).not.toMatch(/^\{"level"/m);
    expect(startup).not.toMatch(/^\s+at /m);

    browser = await openChromium();
    const page = await browser.context.newPage();
    await page.goto(address);
    const chat = new ChatPage(page);
    const command_ = async (name: string) => {
      await page.getByTestId("menu").click();
      await page.getByTestId("command-menu").getByText(`/${name}`, { exact: true }).click();
    };
    await command_("start");
    await chat.waitForBot(/credits/, 60_000);
    await command_("image");
    await chat.waitForBot("Describe the image");
    await chat.press("✨ Try the example");
    await chat.waitForBot("🖼 New image");
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(0, 60_000);
    await expect.poll(() => photo.textContent()).toContain("lighthouse");
    await chat.screenshot(join(process.cwd(), "test-results", "playground", "fresh-clone.png"));

    // Ctrl-C reaches the whole group: every process of it ends by itself, the address stops answering
    process.kill(-child.pid!, "SIGINT");
    const stopBy = Date.now() + 45_000;
    while (groupAlive(child.pid!)) {
      if (Date.now() > stopBy) throw new Error(`still running 45 s after Ctrl-C:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toContain("SIGINT: stopping the playground");
    expect(output).not.toContain("drain took too long");
    await expect(fetch(address)).rejects.toThrow();
  }, 600_000);
});
