/**
 * Requests: the guided conversations (/image, /edit, /video, /dub), the buttons
 * under results, /history and /cancel. Code outside this folder imports it from here only.
 */
export { cancelFeature } from "./cancel";
export { captionCommand, requestCommands, requestFeatures } from "./feature";
export { requestsHelp } from "./help";
export { sentOffersFeature } from "./sent-offers";
export { createSentStore } from "./sent-store";
