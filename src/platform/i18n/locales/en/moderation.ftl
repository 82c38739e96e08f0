## Refused prompts: /moderation for admins, and what a refused request says

cmd-moderation = Refused words and patterns: add, remove, list
# $max: the longest rule
moderation-usage =
    /moderation add <word or pattern> · /moderation remove <word or pattern> · /moderation list
    A rule is one or a few words (up to { $max } characters), matched whole in any case; * stands for any letters (nud* refuses "nude" and "nudity"). A prompt that matches is refused before anything is charged.
# $rule: the rule as kept (lower case)
moderation-added = Added: prompts with “{ $rule }” are refused from now on.
moderation-exists = “{ $rule }” is already refused.
moderation-removed = Removed: “{ $rule }” is no longer refused.
moderation-missing = “{ $rule }” is not among the refused words. Send /moderation list to see them.
moderation-settings = “{ $rule }” comes from the bot's settings (REFUSED_PROMPTS): it can only be removed there.
moderation-list-title = 🚫 Refused words and patterns:
moderation-list-empty = No words or patterns are refused. Add one with /moderation add <word>.
moderation-line-settings = • { $rule } (settings)
moderation-line-admin = • { $rule }
prompt-refused = This request cannot be made here. Nothing was charged; please describe something else.
# $today, $week: requests refused for their prompt since midnight UTC, and in the last 7 days
stats-refused-prompts = 🚫 Prompts refused: { $today } today · { $week } in 7 days
