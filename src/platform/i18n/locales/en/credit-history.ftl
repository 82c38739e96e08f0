## /balance: the latest movements of credits

credit-history-title = 🧾 Latest movements:
credit-history-empty = 🧾 No movements yet.
# $date, $time: when (UTC); $what: one of the credit-entry-* texts
credit-line = { $date } { $time } · { $what }
# $amount: credits the entry moved (always positive: the text carries the sign)
credit-entry-welcome = +{ $amount } welcome credits
credit-entry-grant = +{ $amount } granted
credit-entry-referral-bonus = +{ $amount } invite bonus
credit-entry-promo = +{ $amount } from a promo code
credit-entry-purchase = +{ $amount } bought
credit-entry-plan = +{ $amount } from your monthly plan
# $request: a credit-request text (which request the credits were for)
credit-entry-hold = −{ $amount } reserved for { $request }
credit-entry-charge = ✔️ { $amount } reserved credits spent on { $request }
# $back: the part of the reservation that was not needed
credit-entry-charge-partial = ✔️ { $amount } reserved credits spent on { $request }, +{ $back } back
credit-entry-release = +{ $amount } reserved credits back, not charged: { $request }
credit-entry-refund = +{ $amount } refunded for { $request }
# $operation: an op-* text; $words: the request's prompt (or a dub's languages), shortened
credit-request = { $operation } “{ $words }”
credit-request-unknown = a request
credit-entry-adjustment-plus = +{ $amount } correction
credit-entry-adjustment-minus = −{ $amount } correction
credit-entry-purchase-refund = −{ $amount } taken back (purchase refunded)
credit-entry-referral-revoke = −{ $amount } invite bonus taken back (purchase refunded)

# /history: what a request cost
# $cost: credits charged; $refunded: credits given back afterwards
history-cost-refunded = { $cost } credits, { $refunded } refunded
# $cost: the credits reserved for it, all returned
history-cost-returned = no charge ({ $cost } reserved, returned)
history-cost-free = free
