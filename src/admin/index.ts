/** The admin feature: /stats, /user, /grant, /refund, /ban (its composer). Code outside this folder imports it from here only. */
export { adminFeature } from "./feature";
