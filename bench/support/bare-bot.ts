import { serve } from "@hono/node-server";
import { Bot, webhookCallback } from "grammy";
import { Hono } from "hono";
import { createLedger } from "../../src/domain/credits/ledger";
import { recentEntries } from "../../src/domain/credits/recent-entries";
import { openDatabase } from "../../src/platform/db/client";
import { statementsSent } from "../../src/platform/db/prepared-statements";

/**
 * The bench's reference: a bare grammY bot in webhook mode, nothing but the
 * handler. BARE_SHAPE=same runs the bot's /balance handler shape (the account
 * and the latest entries read from Postgres, one reply); "fixed" replies with
 * a fixed text. Prints "bare ready" once it listens.
 */
const shape = process.env.BARE_SHAPE === "fixed" ? "fixed" : "same";
const bot = new Bot(process.env.BOT_TOKEN!, { client: { apiRoot: process.env.TELEGRAM_API_ROOT! } });
const handle = await openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! });
const ledger = createLedger(handle.db);

bot.command("balance", async (ctx) => {
  if (shape === "fixed" || !ctx.from) {
    await ctx.reply("Available: 100 credits");
    return;
  }
  const account = await ledger.account(ctx.from.id);
  const entries = await recentEntries(handle.db, ctx.from.id, 10);
  await ctx.reply(
    [
      `Available: ${account.available} · held ${account.held}`,
      ...entries.map((e) => `${e.label} ${e.amount}`),
    ].join("\n"),
  );
});

await bot.init();
const app = new Hono();
app.post("/telegram", webhookCallback(bot, "hono", { secretToken: process.env.TELEGRAM_WEBHOOK_SECRET! }));
// the bench counts statements the way the bot's /metrics reports them
app.get("/metrics", (c) => c.text(`msb_db_statements_total ${statementsSent()}\n`));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" }, () => {
  process.stdout.write("bare ready\n");
});
// a clean exit on the bench's SIGTERM, so that node's --cpu-prof writes its profile
process.once("SIGTERM", () => process.exit(0));
