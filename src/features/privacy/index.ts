import type { Feature } from "../../bot/feature";
import type { Config } from "../../platform/config/config";
import type { Erasure } from "./erase";
import { privacyFeature } from "./feature";

/** /privacy and "Delete my data". Code outside this folder imports it from here only. */
export { createErasure, type Erasure } from "./erase";

export const privacy: Feature<{
  erasure: Erasure;
  config: Pick<Config, "privacyPolicy" | "mediaRetentionDays">;
}> = {
  name: "privacy",
  commands: ["privacy"],
  // "first": the policy and the erasure answer even inside a conversation
  bot: (deps) => [{ phase: "first", composer: privacyFeature(deps) }],
};
