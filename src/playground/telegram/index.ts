export type { BotMessage, ChatState, StoredMessage } from "./chats";
export { ApiError, type Envelope, type ErrorEnvelope } from "./errors";
export type { GroupOptions, TestGroup } from "./groups";
export { defaultTelegramRules, type FloodRules, type TelegramRules, type TelegramRulesInput } from "./rules";
export { supportedMethods } from "./server";
export { type StandInOptions, startTelegramStandIn, type TelegramStandIn } from "./standin";
export type { WebhookDelivery, WebhookInfo } from "./updates";
export type {
  ButtonMatcher,
  FileSpec,
  PaymentOutcome,
  PhotoSpec,
  SendOptions,
  TestUser,
  UserOptions,
} from "./users";
export type { CallbackAnswer, CallRecord } from "./world";
