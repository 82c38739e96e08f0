# /refund (admins), refunds made elsewhere, and payments the reconciler found
cmd-refund = Refund a Stars payment by its charge id
refund-usage = Usage: /refund <telegram_payment_charge_id> (the charge id is in the payment's receipt and in /user).
refund-unknown-charge = No payment with the charge id { $charge } is recorded here. Nothing was changed.
refund-already = The payment { $charge } was already refunded ({ $reversed } credits were taken back then). It cannot be refunded twice; nothing was changed.
refund-refused = Telegram refused to refund { $charge }: { $reason }. Nothing was changed.
refund-done = ✅ Refunded { $stars } Stars of payment { $charge } to user { $user }: { $reversed } credits taken back.
refund-done-partly = ✅ Refunded { $stars } Stars of payment { $charge } to user { $user }: { $reversed } credits taken back; { $missing } could not be, the user had already spent them.
refund-user-notice = ↩️ Your payment of { $stars } Stars was refunded: { $reversed } credits were taken back.
refund-user-notice-partly = ↩️ Your payment of { $stars } Stars was refunded: { $reversed } credits were taken back ({ $missing } had already been spent and were not).
reconcile-credited = ⭐ Your payment of { $stars } Stars was credited: +{ $credits } credits.
alert-payment-unreadable = ⚠️ A Stars payment matches no invoice of ours and was NOT credited: charge { $charge }, user { $user }, { $stars } Stars. Check it, then /refund it or /grant by hand.
