# Inline mode for a user who has not started the bot: the result is uploaded to their private chat first
# $name: who placed the message; $bot: the bot's username
inline-start-first =
    { $name }, I can only show the picture here once you have started me: open a private chat with @{ $bot } and press Start, then come back and press Confirm.
    Nothing has been charged.
inline-btn-start = 🤖 Open the bot
# the button above the inline results (Telegram's switch to the private chat)
inline-answer-start = Start the bot first
