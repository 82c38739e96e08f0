cmd-buy = Buy credits with Telegram Stars
cmd-paysupport = Help with a payment
cmd-terms = Terms of purchase
buy-button = 💳 Buy credits
# $available: the user's balance
buy-packs =
    Choose a pack of credits, paid with Telegram Stars.
    Your balance: { $available } credits.
buy-packs-test = This is a test installation: payments are test payments and no real Stars are charged.
# $credits, $bonus: credits of the pack; $stars: its price in Stars
buy-pack-button =
    { $bonus ->
        [0] { $credits } credits · { $stars } ⭐
       *[other] { $credits } + { $bonus } bonus credits · { $stars } ⭐
    }
# $credits: credits granted (bonus included); at most 32 characters
buy-invoice-title = { $credits } credits
buy-invoice-title-test = TEST · { $credits } credits
# $credits: credits granted (bonus included)
buy-invoice-description = { $credits } credits for pictures, edits, videos and dubbing in this bot. Credits are not transferable; see /terms.
buy-invoice-description-test = TEST payment, no real Stars are charged. { $credits } credits for pictures, edits, videos and dubbing in this bot.
# $credits: credits granted (bonus included)
buy-price-label = { $credits } credits
buy-pack-gone = That pack is no longer on sale. Please choose again with /buy.
buy-pack-changed = This pack changed since the invoice was sent. Please choose again with /buy; nothing was charged.
buy-invoice-invalid = This invoice is not valid. Please choose a pack with /buy; nothing was charged.
buy-invoice-failed = The payment form could not be opened just now. Please press the pack again in a moment; nothing was charged.
# $credits: credits added; $available: the new balance
buy-paid = ⭐ { $credits } credits added. Your balance: { $available } credits.
buy-paid-test = ⭐ { $credits } credits added. Your balance: { $available } credits. This was a test payment: no real Stars were charged.
# $charge: Telegram's charge id
buy-paid-unreadable =
    Your payment arrived, but I could not match it to a pack.
    Please send /paysupport this charge id: { $charge }
paysupport-text =
    Help with a payment

    If a purchase went wrong (credits missing, charged twice, a pack you did not mean to buy), write to us here with:
    - the date of the payment and the pack,
    - the Telegram payment id from the receipt in this chat (tap the payment message).

    Purchases can be refunded: the Stars go back to your Telegram account and the credits of the purchase are taken back (credits already spent cannot be).
terms-text =
    Terms of purchase

    - Credits are bought with Telegram Stars and are spent only on this bot's media: pictures, edits, videos and dubbing.
    - Credits are not transferable and cannot be exchanged for money or Stars.
    - A request that fails or is cancelled costs nothing: its credits come back.
    - Refunds: write to /paysupport. A refunded purchase takes its credits back.
    - Monthly plans (/plans) renew every 30 days until cancelled; a cancelled plan runs to the end of the month paid. A refunded month takes its credits back and ends the plan.
    - Results are kept for a limited time; save what you want to keep.
