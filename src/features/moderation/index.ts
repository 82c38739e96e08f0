import type { Feature } from "../../bot/feature";
import { moderationFeature } from "./feature";
import type { PromptRules } from "./store";

/** Refused prompts: the rules (REFUSED_PROMPTS and the admins' /moderation) and the refusals they made. Code outside this folder imports it from here only. */
export { createPromptRules, type PromptRules, refusalCounts } from "./store";

export const moderation: Feature<{ promptRules: PromptRules; config: { adminIds: readonly number[] } }> = {
  name: "moderation",
  bot: (deps) => [
    { phase: "feature", composer: moderationFeature({ rules: deps.promptRules, config: deps.config }) },
  ],
};
