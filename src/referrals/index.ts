/** Referrals: /invite, the invite claim of /start, and the bonus at the first purchase. Code outside this folder imports it from here only. */
export { claimInvite, inviteFeature, referralCommands } from "./feature";
export { referralHooks } from "./hooks";
export { referralNotifier } from "./notify";
