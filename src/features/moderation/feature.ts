import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { adminsOnly } from "../../bot/middleware/admins-only";
import { maxRuleLength } from "../../platform/lib/refused-prompts";
import type { PromptRules } from "./store";

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
        return void (await ctx.reply([ctx.t("moderation-list-title"), ...lines].join("\n")));
      }
      default:
        return void (await usage());
    }
  });
  feature.use(outer);
  return feature;
}
