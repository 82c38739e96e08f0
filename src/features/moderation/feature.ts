import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { adminsOnly } from "../../bot/middleware/admins-only";
import { maxRuleLength } from "../../platform/lib/refused-prompts";
import type { PromptRules } from "./store";

/** Lines joined into as few messages as Telegram's 4,096 characters allow (each line is far shorter). */
function inMessages(lines: readonly string[], max = 4096): string[] {
  const messages: string[] = [];
  let current = "";
  for (const line of lines) {
    if (current !== "" && current.length + 1 + line.length > max) {
      messages.push(current);
      current = "";
    }
    current = current === "" ? line : `${current}\n${line}`;
  }
  if (current !== "") messages.push(current);
  return messages;
}

/**
 * /moderation add|remove|list for the bot's admins, in their private chat:
 * the refused words and patterns. Each change is logged with the admin's id.
 */
export function moderationFeature(deps: {
  rules: PromptRules;
  config: { adminIds: readonly number[] };
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const { outer, admins } = adminsOnly(deps.config.adminIds);
  admins.chatType("private").command("moderation", async (ctx) => {
    const [action = "", ...rest] = ctx.match.trim().split(/\s+/);
    const text = rest.join(" ");
    const usage = () => ctx.reply(ctx.t("moderation-usage", { max: maxRuleLength }));
    switch (action.toLowerCase()) {
      case "add": {
        const { outcome, rule } = await deps.rules.add(text, ctx.from.id);
        if (outcome === "invalid") return void (await usage());
        if (outcome === "added") ctx.logger.info({ rule, admin: ctx.from.id }, "refused prompt rule added");
        return void (await ctx.reply(ctx.t(`moderation-${outcome}`, { rule: rule ?? text })));
      }
      case "remove": {
        if (!text) return void (await usage());
        const { outcome, rule } = await deps.rules.remove(text);
        if (outcome === "removed")
          ctx.logger.info({ rule, admin: ctx.from.id }, "refused prompt rule removed");
        return void (await ctx.reply(ctx.t(`moderation-${outcome}`, { rule: rule ?? text })));
      }
      case "list": {
        const rules = await deps.rules.list();
        if (rules.length === 0) return void (await ctx.reply(ctx.t("moderation-list-empty")));
        const lines = rules.map((r) => ctx.t(`moderation-line-${r.from}`, { rule: r.rule }));
        for (const text of inMessages([ctx.t("moderation-list-title"), ...lines])) await ctx.reply(text);
        return;
      }
      default:
        return void (await usage());
    }
  });
  feature.use(outer);
  return feature;
}
