/** Broadcasts: the admins' /broadcast (feature and conversation), the store, the jobs that send and tick, and the reconciler. Code outside this folder imports it from here only. */
export { broadcastFeature } from "./feature";
export { broadcastQueue, copyJobHandler, tickJobHandler } from "./jobs";
export { resumeBroadcasts } from "./reconciler";
export { createBroadcastStore } from "./store";
