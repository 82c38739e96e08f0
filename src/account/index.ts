/** A person's account: /start (the welcome credits, an invite's code) and /balance. Code outside this folder imports it from here only. */
export { balanceFeature } from "./balance";
export { startFeature } from "./start";
