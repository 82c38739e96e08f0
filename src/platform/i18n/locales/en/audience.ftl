## What a group sees: the group twins of texts about one person's account
## (src/platform/i18n/audience.ts swaps each key for its "-group" twin in a group, a topic and inline mode)

# $price: the exact price
cv-line-price-group = 💳 Price: { $price } credits
cv-line-price-up-to-group = 💳 Price: up to { $price } credits, settled to the length dubbed
cv-line-no-price-group = 💳 No price for these options
# $price: the cost; $available, $missing: not shown to a group
gen-insufficient-group =
    Not enough credits for this ({ $price } credits).
    The details are in a private chat with me.
# $price: the cost; $name: the first name of the one who placed it
inline-insufficient-group =
    { $name } does not have enough credits for this ({ $price } credits).
    Top up in a private chat with me, then press Confirm again.
# $name: the user's first name; $amount, $available: not shown to a group
start-welcome-new-group =
    Hi { $name }! 👋
    Welcome to Media Studio: I make images, edit photos, create videos and dub audio and video with AI.
    Your credits are in a private chat with me.

    Send /help to see what I can do.
# $name: the user's first name; $available: not shown to a group
start-welcome-back-group =
    Welcome back, { $name }! 👋
    Your credits are in a private chat with me.

    Send /help to see what I can do.
# what a group reads instead of a text about one person's account (a feature that forgot the rule, in production)
account-in-private-chat-group = 🔒 This is personal: I show it only in a private chat with me.

## Personal details asked for in a group (/balance, /history, /buy, too few credits)

# $name: the member's first name
private-sent-group = 🔒 { $name }, I sent it to our private chat.
# $name: the member's first name
private-open-group = 🔒 { $name }, this is personal, so I show it only in a private chat with me: open it with the button below.
private-open-button = 🔒 Open a private chat
