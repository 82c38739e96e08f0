import { type DubbingLanguage, dubbingLanguages } from "../../platform/media-service/catalog";

/**
 * The page's words that the chat says too, taken from the chat's messages
 * (src/platform/i18n/locales) so that the two cannot drift: each page key, the chat's
 * message and the variables the page fills in. The server renders them in the
 * caller's language with `{name}` where a variable goes (GET /me), and the page
 * puts its numbers there. A message here must not choose its text by a
 * variable's value (a plural): it is rendered before the value is known.
 */
const fixed = {
  "label-prompt": { message: "cv-label-prompt" },
  "label-model": { message: "cv-label-model" },
  "label-aspect": { message: "cv-label-aspect" },
  "label-resolution": { message: "cv-label-resolution" },
  "label-count": { message: "cv-label-count" },
  "label-duration": { message: "cv-label-duration" },
  "label-audio": { message: "cv-label-audio" },
  "label-web": { message: "cv-label-web" },
  "label-target": { message: "cv-label-target" },
  "label-source": { message: "cv-label-source" },
  "lang-auto": { message: "cv-lang-auto" },
  "aspect-auto": { message: "cv-aspect-auto" },
  seconds: { message: "cv-seconds", vars: ["value"] },
  "choice-price": { message: "cv-choice-price", vars: ["label", "price"] },
  price: { message: "cv-line-price", vars: ["price", "available"] },
  "price-up-to": { message: "cv-line-price-up-to", vars: ["price", "available"] },
  "no-price": { message: "cv-line-no-price", vars: ["available"] },
  confirm: { message: "cv-btn-confirm", vars: ["price"] },
  "confirm-up-to": { message: "cv-btn-confirm-up-to", vars: ["price"] },
  "confirm-no-price": { message: "cv-btn-confirm-no-price" },
  "prompt-too-long": { message: "cv-prompt-too-long", vars: ["length", "max"] },
  "saved-options": { message: "pref-saved-line" },
  cost: { message: "history-cost-charged", vars: ["cost"] },
  free: { message: "history-cost-free" },
} as const satisfies Record<string, ChatWord>;

interface ChatWord {
  message: string;
  vars?: readonly string[];
}

export type ChatWordKey = keyof typeof fixed | `lang-${DubbingLanguage}`;

const chatWordList: ReadonlyArray<[ChatWordKey, ChatWord]> = [
  ...(Object.entries(fixed) as Array<[keyof typeof fixed, ChatWord]>),
  ...dubbingLanguages.map((code): [ChatWordKey, ChatWord] => [
    `lang-${code}`,
    { message: `dub-lang-${code}` },
  ]),
];

/** Every key of the chat's words, for the contract. */
export const chatWordKeys = chatWordList.map(([key]) => key) as [ChatWordKey, ...ChatWordKey[]];

/** The chat's translator (i18n's TranslateFor; named here by shape, as the page's type check reads this file). */
type Translate = (language: string, message: string, vars: Record<string, string>) => string;

/** The chat's words for the page in `language`, each with `{name}` where the page puts a value. */
export function chatWords(t: Translate, language: string): Record<ChatWordKey, string> {
  return Object.fromEntries(
    chatWordList.map(([key, { message, vars = [] }]) => [
      key,
      t(language, message, Object.fromEntries(vars.map((name) => [name, `{${name}}`]))),
    ]),
  ) as Record<ChatWordKey, string>;
}
