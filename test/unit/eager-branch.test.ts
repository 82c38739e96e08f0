import { Api, Composer, Context } from "grammy";
import type { Update } from "grammy/types";
import { afterEach, describe, expect, test, vi } from "vitest";
import "../../src/bot/eager-branch";
import { testBotInfo } from "../support/bot-info";

/** grammY's filters over the eager branch: the same choices as grammY's own, without `lazy` per update. */

const api = new Api("123:test", { apiRoot: "http://127.0.0.1:9" });
const from = { id: 7, is_bot: false, first_name: "A" };
const chat = { id: 7, type: "private" as const, first_name: "A" };

function text(body: string, updateId = 1): Context {
  const command = body.startsWith("/") ? body.split(" ")[0]!.length : 0;
  const update: Update = {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 0,
      chat,
      from,
      text: body,
      ...(command > 0 ? { entities: [{ type: "bot_command" as const, offset: 0, length: command }] } : {}),
    },
  };
  return new Context(update, api, testBotInfo);
}

async function run(composer: Composer<Context>, ctx: Context): Promise<boolean> {
  let passed = false;
  await composer.middleware()(ctx, async () => {
    passed = true;
  });
  return passed;
}

afterEach(() => vi.restoreAllMocks());

describe("eager branch", () => {
  test("a command runs its handler and stops; another update passes on", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.command("balance", (ctx) => {
      seen.push(`balance ${ctx.match}`);
    });
    c.command("help", () => {
      seen.push("help");
    });
    expect(await run(c, text("/balance now"))).toBe(false);
    expect(await run(c, text("/help"))).toBe(false);
    expect(await run(c, text("hello"))).toBe(true);
    expect(seen).toEqual(["balance now", "help"]);
  });

  test("an async predicate (drop) is awaited, both ways", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.drop(
      async (ctx) => ctx.message?.text === "skip",
      () => {
        seen.push("kept");
      },
    );
    expect(await run(c, text("skip"))).toBe(true);
    expect(await run(c, text("keep"))).toBe(false);
    expect(seen).toEqual(["kept"]);
  });

  test("a predicate answering other truthy or falsy values, or a thenable, decides as grammY's await would", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    const loose = (ctx: Context) => ctx.message?.text as unknown as boolean;
    c.filter(loose, (ctx) => {
      seen.push(`text ${ctx.message?.text}`);
    });
    const thenable = (ctx: Context) =>
      ({
        // biome-ignore lint/suspicious/noThenProperty: a thenable that is no Promise, as a plugin may answer
        then: (resolve: (v: boolean) => void) => resolve(ctx.message?.text === ""),
      }) as unknown as Promise<boolean>;
    c.filter(thenable, () => {
      seen.push("empty");
    });
    expect(await run(c, text("hi"))).toBe(false);
    expect(await run(c, text(""))).toBe(false);
    expect(seen).toEqual(["text hi", "empty"]);
  });

  test("handlers added to a filter's composer after it was registered take part", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    const privateChats = c.chatType("private");
    expect(await run(c, text("/later"))).toBe(true);
    privateChats.command("later", () => {
      seen.push("later");
    });
    expect(await run(c, text("/later"))).toBe(false);
    expect(seen).toEqual(["later"]);
  });

  test("branch with two sides, either side may call next", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.branch(
      (ctx) => ctx.message?.text === "yes",
      async (_ctx, next) => {
        seen.push("yes");
        await next();
      },
      () => {
        seen.push("no");
      },
    );
    expect(await run(c, text("yes"))).toBe(true);
    expect(await run(c, text("nope"))).toBe(false);
    expect(seen).toEqual(["yes", "no"]);
  });

  test("a filter builds nothing per update: lazy is never reached", async () => {
    const lazy = vi.spyOn(Composer.prototype, "lazy");
    const c = new Composer<Context>();
    for (const name of ["a", "b", "c", "d"]) c.command(name, () => {});
    c.on("callback_query:data", () => {});
    for (let i = 0; i < 5; i++) await run(c, text(`/d ${i}`, i + 1));
    expect(lazy).not.toHaveBeenCalled();
  });
});
