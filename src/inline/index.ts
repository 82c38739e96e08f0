/** Inline mode: its composer and the store of offers placed in chats. Code outside this folder imports it from here only. */
export { inlineFeature } from "./feature";
export { inlineHelp } from "./help";
export { createInlineOffers } from "./offers";
