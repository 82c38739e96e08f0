/** Remembered choices: the store, and the options read back from it. Code outside this folder imports it from here only. */
export {
  dubLanguagesFrom,
  dubLanguagesOfStored,
  imageOptionsOfStored,
  rememberedOf,
  videoOptionsOfStored,
} from "./options";
export { createPreferences, type Preferences, type StoredOptions } from "./store";
