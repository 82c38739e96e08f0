/** Remembered choices: the store, the options read back from it, and /settings, which shows and forgets them. Code outside this folder imports it from here only. */

export { settingsCommands, settingsFeature } from "./feature";
export {
  dubLanguagesFrom,
  dubLanguagesOfStored,
  imageOptionsOfStored,
  rememberedOf,
  videoOptionsOfStored,
} from "./options";
export { createPreferences, type Preferences, type StoredOptions } from "./store";
