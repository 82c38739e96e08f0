import type { Feature } from "../../bot/feature";
import { type InviteDeps, inviteFeature, referralCommands } from "./feature";

/** Referrals: /invite, the invite claim of /start, and the bonus at the first purchase. Code outside this folder imports it from here only. */
export { claimInvite } from "./feature";
export { referralHooks } from "./hooks";
export { referralNotifier } from "./notify";

export const referrals: Feature<InviteDeps> = {
  name: "referrals",
  commands: referralCommands,
  bot: (deps) => [{ phase: "feature", composer: inviteFeature(deps) }],
};
