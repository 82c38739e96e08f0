# Inline mode (@bot <description> in any chat)
inline-help-title = ℹ️ How to use me here
inline-help-description = Type a description after my name, e.g. @{ $bot } a cat in the snow
inline-help-text =
    To create a picture in any chat, type @{ $bot } followed by a description, then pick "Generate image".
    Nothing is charged until you press Confirm on the message.
inline-problem-title = ⚠️ This description cannot be used
# $prompt: the user's text; $price: credits
inline-image-title = 🎨 Generate image · { $price } credits
inline-offer = 🎨 { $prompt } · { $price } credits · tap Confirm
inline-recent-title = Your earlier result
inline-not-yours = This is not yours: only the person who sent it can confirm it.
inline-offer-expired = This offer has expired. Type @{ $bot } and a description to make a new one.
# $price: the cost; $available: the balance; $missing: how many more are needed
inline-insufficient =
    Not enough credits: this costs { $price } and { $name } has { $available }.
    { $missing } more are needed. Top up in a private chat with me, then press Confirm again.
inline-btn-top-up = 💳 Top up
# $price: the new price
inline-price-changed = The price has changed: this now costs { $price } credits. Confirm again?
inline-unavailable = Sorry, this cannot be made right now. Nothing was charged.
# $price: the credits that were charged and are now refunded
inline-undeliverable =
    Sorry, I could not show the result here: start a private chat with me first, then try again.
    The { $price } credits it cost are back on your balance.
