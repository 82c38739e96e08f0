export type { BotMessage, StoredMessage } from "./chats";
export type { TestGroup } from "./groups";
export type { TelegramRulesInput } from "./rules";
export { startTelegramStandIn, type TelegramStandIn } from "./standin";
export type { FileSpec, TestUser } from "./users";
export type { CallRecord } from "./world";
