## /balance: the latest movements of credits

credit-history-title = 🧾 آخرین گردش‌ها:
credit-history-empty = 🧾 هنوز گردشی ندارید.
# $date, $time: when (UTC), in Persian digits; $what: one of the credit-entry-* texts
# Each line starts with a right-to-left mark (U+200F): everything else in it is
# isolated, and a client taking each line's direction from its first letter
# would draw it left to right.
credit-line = ‏{ $date } { $time } · { $what }
# $amount: credits the entry moved (always positive: the text carries the sign)
credit-entry-welcome = +{ $amount } اعتبار خوش‌آمد
credit-entry-grant = +{ $amount } اعتبار هدیه
credit-entry-referral-bonus = +{ $amount } پاداش دعوت
credit-entry-promo = +{ $amount } از کد هدیه
credit-entry-purchase = +{ $amount } خرید
credit-entry-plan = +{ $amount } از اشتراک ماهانه
# $request: a credit-request text (which request the credits were for)
credit-entry-hold = −{ $amount } رزرو برای { $request }
credit-entry-charge = ✔️ { $amount } اعتبار رزروشده برای { $request } مصرف شد
# $back: the part of the reservation that was not needed
credit-entry-charge-partial = ✔️ { $amount } اعتبار رزروشده برای { $request } مصرف شد، +{ $back } برگشت
credit-entry-release = +{ $amount } اعتبار رزروشده برگشت، بدون هزینه: { $request }
credit-entry-refund = +{ $amount } بازپرداخت برای { $request }
# $operation: an op-* text; $words: the request's prompt (or a dub's languages), shortened
# Starts with a right-to-left mark (U+200F): the text is isolated where it is
# used, and with only isolated words of its own it would be laid out left to
# right, the quote on the wrong side of the operation.
credit-request = ‏{ $operation } «{ $words }»
credit-request-unknown = یک درخواست
credit-entry-adjustment-plus = +{ $amount } اصلاح
credit-entry-adjustment-minus = −{ $amount } اصلاح
credit-entry-purchase-refund = −{ $amount } پس گرفته شد (خرید بازپرداخت شد)
credit-entry-referral-revoke = −{ $amount } پاداش دعوت پس گرفته شد (خرید بازپرداخت شد)

# /history: what a request cost
# $cost: credits charged; $refunded: credits given back afterwards
history-cost-refunded = { $cost } اعتبار، { $refunded } بازپرداخت شد
# $cost: the credits reserved for it, all returned
history-cost-returned = بدون هزینه ({ $cost } رزرو شد و برگشت)
history-cost-free = رایگان
