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

## Reports of results in groups

report-thanks = Thank you: the bot's admins will look at it.
report-already = You reported this already; the admins have it.
report-gone = This result can no longer be reported.
# $group: the group's title; $maker, $reporter: users as admins see them; $operation; $price: credits; $prompt
report-admin =
    ⚠️ A result was reported in “{ $group }”
    Made by { $maker } · { $operation } · { $price } credits
    Prompt: { $prompt }
    Reported by { $reporter }
report-remove-button = 🗑 Remove from the group
report-refund-button = ↩️ Refund
report-ban-button = 🚫 Ban the maker
report-dismiss-button = ✖️ Dismiss
# $count: messages deleted
report-removed = 🗑 Removed from the group ({ $count } { $count ->
        [one] message
       *[other] messages
    }).
report-remove-failed = The result could not be removed: the bot may not delete messages there (it needs the right to), or it is over 48 hours old. A group admin can delete it.
# $credits: credits given back to the maker
report-refunded = ↩️ Refunded: { $credits } credits went back to the maker.
report-refund-already = Already refunded: nothing more to give back.
report-refund-none = Nothing was charged for this result: nothing to refund.
# $user: the maker, as admins see users
report-banned = 🚫 { $user } is banned: the bot answers them with one polite line and makes nothing more.
report-ban-already = { $user } was banned already.
report-ban-admin = { $user } is an admin of the bot and cannot be banned.
report-dismissed = ✖️ Dismissed: the result stays.
