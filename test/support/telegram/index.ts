export type { ChatState, StoredMessage } from "./chats";
export { ApiError, type Envelope, type ErrorEnvelope } from "./errors";
export { defaultTelegramRules, type FloodRules, type TelegramRules, type TelegramRulesInput } from "./rules";
export { supportedMethods } from "./server";
export { type StandInOptions, startTelegramStandIn, type TelegramStandIn } from "./standin";
export type { WebhookDelivery, WebhookInfo } from "./updates";
export type {
  BotMessage,
  ButtonMatcher,
  FileSpec,
  GroupOptions,
  PaymentOutcome,
  PhotoSpec,
  SendOptions,
  TestGroup,
  TestUser,
  UserOptions,
} from "./users";
export type { CallbackAnswer, CallRecord } from "./world";
