import type { UserFromGetMe } from "grammy/types";

/** A bot's getMe answer, for tests that build a Bot without asking a Bot API. */
export const testBotInfo: UserFromGetMe = {
  id: 42,
  is_bot: true,
  first_name: "Studio",
  username: "studio_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: true,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};
