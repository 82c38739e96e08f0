import type { Feature } from "../../bot/feature";
import type { Database } from "../../platform/db/client";
import { settingsCommands, settingsFeature } from "./feature";
import { createPreferences } from "./store";

/** Remembered choices: the store, the options read back from it, and /settings, which shows and forgets them. Code outside this folder imports it from here only. */

export {
  dubLanguagesFrom,
  dubLanguagesOfStored,
  imageOptionsOfStored,
  rememberedOf,
  videoOptionsOfStored,
} from "./options";
export { createPreferences, type Preferences, type StoredOptions } from "./store";

export const preferences: Feature<{ db: Database }> = {
  name: "preferences",
  commands: settingsCommands,
  bot: (deps) => [
    { phase: "feature", composer: settingsFeature({ preferences: createPreferences(deps.db) }) },
  ],
};
