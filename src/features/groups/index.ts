import type { Feature } from "../../bot/feature";
import { type GroupFeaturesDeps, groupFeatures } from "./feature";

/** Groups: the admins' /groupsettings and the guard that enforces them. Code outside this folder imports it from here only. */

/** Before anything that starts a request in a group: the group admins' settings and their guard. */
export const groups: Feature<GroupFeaturesDeps> = {
  name: "groups",
  bot: (deps) => groupFeatures(deps),
};
