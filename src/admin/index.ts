/** The admin feature: /stats, /user, /grant, /refund, /ban (its composer), and the filter other admin-only features use. Code outside this folder imports it from here only. */
export { adminsOnly } from "./admin-only";
export { adminFeature } from "./feature";
export { collectStats } from "./stats";
