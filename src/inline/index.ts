/** Inline mode: its composer and the store of offers placed in chats. Code outside this folder imports it from here only. */
export { inlineFeature } from "./feature";
export { createInlineOffers } from "./offers";
