import type { Feature } from "../../bot/feature";
import { moderationFeature } from "./feature";
import { type ReportsDeps, reportsFeature } from "./reports";
import type { PromptRules } from "./store";

/** Refused prompts (REFUSED_PROMPTS and the admins' /moderation) and reports of results in groups. Code outside this folder imports it from here only. */
export { createReportStore, type ReportStore } from "./report-store";
export { reportedPrompt } from "./reports";
export { createPromptRules, type PromptRules, refusalCounts } from "./store";

export const moderation: Feature<
  Omit<ReportsDeps, "adminIds"> & { promptRules: PromptRules; config: { adminIds: readonly number[] } }
> = {
  name: "moderation",
  bot: (deps) => [
    { phase: "feature", composer: moderationFeature({ rules: deps.promptRules, config: deps.config }) },
    // "first": a member's report and an admin's action answer even inside a conversation
    { phase: "first", composer: reportsFeature({ ...deps, adminIds: deps.config.adminIds }) },
  ],
};
