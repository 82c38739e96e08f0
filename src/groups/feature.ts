import { Composer } from "grammy";
import type { BotContext } from "../bot/context";
import type { Database } from "../db/client";
import { type AdminCheck, createAdminCheck } from "./admins";
import { type GroupGuardDeps, groupPolicyGuard } from "./guard";
import { createGroupSettings } from "./settings";
import { anonymousAdminSettings, groupSettingsFeature } from "./settings-feature";

export interface GroupFeaturesDeps {
  db: Database;
  generations: GroupGuardDeps["generations"];
  admins?: AdminCheck;
}

/**
 * Group admins' control of their group: the /groupsettings screen, and the
 * guard that enforces it. `identity` serves anonymous admins (before the
 * people-only rule); `features` go before every other feature, so nothing
 * starts a request in a group before the guard saw it.
 */
export function groupFeatures(deps: GroupFeaturesDeps) {
  const settings = createGroupSettings(deps.db);
  const admins = deps.admins ?? createAdminCheck();
  const guard = new Composer<BotContext>();
  guard.use(groupPolicyGuard({ settings, admins, generations: deps.generations }));
  return {
    identity: anonymousAdminSettings({ settings, admins }),
    features: [groupSettingsFeature({ settings, admins }), guard],
  };
}
