/** Broadcasts: audiences, the store, the jobs that send and tick, and the reconciler. Code outside this folder imports it from here only. */
export { audienceChoices, audienceCode, audienceFromCode, countAudience } from "./audience";
export { type BroadcastQueue, broadcastQueue, copyJobHandler, tickJobHandler } from "./jobs";
export { resumeBroadcasts } from "./reconciler";
export { type Broadcast, type BroadcastStore, createBroadcastStore, type NewBroadcast } from "./store";
