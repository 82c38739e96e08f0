import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import type { FeatureMount } from "../../bot/feature";
import type { Database } from "../../platform/db/client";
import { type AdminCheck, createAdminCheck } from "./admins";
import { type GroupGuardDeps, groupPolicyGuard } from "./guard";
import { createGroupSettings } from "./settings";
import { anonymousAdminSettings, type GroupSettingsDeps, groupSettingsFeature } from "./settings-feature";

export interface GroupFeaturesDeps {
  db: Database;
  generations: GroupGuardDeps["generations"];
  admins?: AdminCheck;
  users: GroupSettingsDeps["users"];
}

/**
 * Group admins' control of their group: the /groupsettings screen, and the
 * guard that enforces it. The anonymous admins' settings run before the
 * people-only rule; the screen and the guard go before every feature that
 * starts a request, so nothing starts one in a group before the guard saw it.
 */
export function groupFeatures(deps: GroupFeaturesDeps): FeatureMount[] {
  const settings = createGroupSettings(deps.db);
  const admins = deps.admins ?? createAdminCheck();
  const guard = new Composer<BotContext>();
  guard.use(groupPolicyGuard({ settings, admins, generations: deps.generations }));
  return [
    { phase: "group-identity", composer: anonymousAdminSettings({ settings, admins, users: deps.users }) },
    { phase: "feature", composer: groupSettingsFeature({ settings, admins, users: deps.users }) },
    { phase: "feature", composer: guard },
  ];
}
