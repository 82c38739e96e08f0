import type { Composer } from "grammy";
import type { Hono } from "hono";
import type { JobHandler } from "../platform/queue/job";
import type { PeriodicWork } from "../platform/queue/periodic-work";
import type { BotContext } from "./context";
import type { HelpSection } from "./features/help";

/** Where in the bot's chain (bot/bot.ts) a feature's composer runs. */
export type FeaturePhase =
  /** messages a group sends as itself (its anonymous admins): before the people-only rule refuses them; no account or conversation */
  | "group-identity"
  /** payment updates (pre-checkout, successful payment): after the banned-users stop, before the conversations */
  | "checkout"
  /** after /help and /language, before every "feature": what must answer even inside a conversation */
  | "first"
  /** the features' commands and conversations */
  | "feature"
  /** after every feature and conversation, before the fallback: what nothing else took */
  | "last";

export interface FeatureMount {
  phase: FeaturePhase;
  composer: Composer<BotContext>;
}

/**
 * What a feature is, as the runtime folds it: its composers at their phases, its
 * commands and /help paragraph, its HTTP routes, its jobs and its periodic work.
 * `B` is what its web side (the bot, the routes) needs, `W` what its worker side
 * needs; the runtime gives both.
 */
export interface Feature<B, W = B> {
  /** its folder's name */
  readonly name: string;
  /** features whose composers must see an update first, in the same phase (checked at start) */
  readonly after?: readonly string[];
  /** its commands in the menu (each has a `cmd-<name>` locale key) */
  readonly commands?: readonly string[];
  help?(deps: B): HelpSection;
  bot?(deps: B): readonly FeatureMount[];
  /** mounts its routes on the web role's server */
  web?(app: Hono, deps: B): Promise<void>;
  jobs?(deps: W): readonly JobHandler[];
  periodic?(deps: W): readonly PeriodicWork[];
}

/**
 * Throws unless every feature comes after those it names in `after`, and names
 * are unique: the list's order is the chain's order within a phase.
 */
export function checkFeatureOrder(features: readonly Pick<Feature<never>, "name" | "after">[]): void {
  const seen = new Set<string>();
  for (const feature of features) {
    if (seen.has(feature.name)) throw new Error(`feature "${feature.name}" is listed twice`);
    for (const before of feature.after ?? []) {
      if (!seen.has(before)) {
        const known = features.some((f) => f.name === before);
        throw new Error(
          known
            ? `feature "${feature.name}" must come after "${before}" in the list`
            : `feature "${feature.name}" names an unknown feature "${before}" in after`,
        );
      }
    }
    seen.add(feature.name);
  }
}
