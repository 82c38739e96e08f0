import { z } from "zod";

/** Shapes of the object-valued parameters; the rules on their contents live in the methods. */
const inlineButtonSchema = z.looseObject({
  text: z.string(),
  callback_data: z.string().optional(),
  url: z.string().optional(),
  pay: z.boolean().optional(),
  web_app: z.looseObject({ url: z.string() }).optional(),
});

export const replyMarkupSchema = z.union([
  z.looseObject({ inline_keyboard: z.array(z.array(inlineButtonSchema)) }),
  z.looseObject({ keyboard: z.array(z.array(z.union([z.string(), z.looseObject({ text: z.string() })]))) }),
  z.looseObject({ remove_keyboard: z.literal(true) }),
  z.looseObject({ force_reply: z.literal(true) }),
]);
export type ReplyMarkup = z.infer<typeof replyMarkupSchema>;
export type InlineButton = z.infer<typeof inlineButtonSchema>;

export const replyParametersSchema = z.looseObject({
  message_id: z.number().int(),
  chat_id: z.union([z.number(), z.string()]).optional(),
  allow_sending_without_reply: z.boolean().optional(),
});

export const entitiesSchema = z.array(
  z.looseObject({ type: z.string(), offset: z.number().int(), length: z.number().int() }),
);

export const inputMediaSchema = z.looseObject({
  type: z.enum(["photo", "video", "audio", "document", "animation"]),
  media: z.string(),
  caption: z.string().optional(),
  parse_mode: z.string().optional(),
  caption_entities: entitiesSchema.optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  duration: z.number().int().optional(),
  title: z.string().optional(),
  performer: z.string().optional(),
  has_spoiler: z.boolean().optional(),
});
export type InputMediaParam = z.infer<typeof inputMediaSchema>;

export const botCommandsSchema = z.array(z.looseObject({ command: z.string(), description: z.string() }));

export const commandScopeSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("default") }),
  z.looseObject({ type: z.literal("all_private_chats") }),
  z.looseObject({ type: z.literal("all_group_chats") }),
  z.looseObject({ type: z.literal("all_chat_administrators") }),
  z.looseObject({ type: z.literal("chat"), chat_id: z.union([z.number(), z.string()]) }),
  z.looseObject({ type: z.literal("chat_administrators"), chat_id: z.union([z.number(), z.string()]) }),
  z.looseObject({
    type: z.literal("chat_member"),
    chat_id: z.union([z.number(), z.string()]),
    user_id: z.number().int(),
  }),
]);
export type CommandScope = z.infer<typeof commandScopeSchema>;

export const menuButtonSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("default") }),
  z.looseObject({ type: z.literal("commands") }),
  z.looseObject({
    type: z.literal("web_app"),
    text: z.string(),
    web_app: z.looseObject({ url: z.string() }),
  }),
]);

export const pricesSchema = z.array(z.looseObject({ label: z.string(), amount: z.number().int() }));

export const inlineResultsSchema = z.array(z.looseObject({ type: z.string(), id: z.string() }));

/** answerInlineQuery's `button`, shown above the results (its rules: inline.ts). */
export const resultsButton = z.object({
  text: z.string(),
  start_parameter: z.string().optional(),
  web_app: z.looseObject({ url: z.string() }).optional(),
});
export type InlineResultsButton = z.infer<typeof resultsButton>;
