## Monthly plans: /plans, the subscription invoice, renewals and cancelling

cmd-plans = Monthly plans paid with Telegram Stars
plans-title = 📅 Monthly plans, paid with Telegram Stars each month. Cancel whenever you like: the plan runs to the end of the month paid.
plans-none = No monthly plans are offered at the moment. Credit packs are in /buy.
# $plan: the plan's name; $credits: credits each month; $discount: percent off every request (0: none); $stars: its price a month
plan-summary =
    { $discount ->
        [0] { $plan }: { $credits } credits every month · { $stars } ⭐ a month
       *[other] { $plan }: { $credits } credits every month and { $discount }% off every request · { $stars } ⭐ a month
    }
# $plan, $stars: as in plan-summary
plan-subscribe-button = Subscribe to { $plan } · { $stars } ⭐/month
# $plan: the plan's name; $date: the end of the month paid (UTC)
plan-active-renews = 📅 Plan { $plan }: renews on { $date }.
plan-active-ends = 📅 Plan { $plan }: ends on { $date }, not renewed.
plan-active-hint = Each renewal adds the plan's credits. Cancelling stops the next renewal; what you paid for runs to its end.
plan-cancel-button = Cancel the plan
plan-resume-button = Renew the plan again
# $plan, $date: as in plan-active-renews
plan-cancelled = Your plan { $plan } will not renew. It stays active until { $date }.
plan-resumed = Your plan { $plan } renews again on { $date }.
plan-already = That is already how your plan stands. Send /plans to see it.
plan-none-active = You have no running plan. Send /plans to choose one.
plan-change-failed = Telegram did not take the change just now. Please press again in a moment.
plan-gone = That plan is no longer offered. Please choose again with /plans; nothing was charged.
plan-changed = This plan changed since you opened it. Please choose again with /plans; nothing was charged.
# $credits: credits added; $available: the new balance; $plan: the plan; $date: when the month paid ends (UTC)
plan-paid = 📅 Plan { $plan }: { $credits } credits added, active until { $date }. Your balance: { $available } credits.
plan-paid-test = This was a test payment: no real Stars were charged.
# $plan: the plan's name; $credits: credits each month; at most 32 characters
plan-invoice-title = Plan { $plan } · monthly
plan-invoice-title-test = TEST · Plan { $plan } · monthly
# $credits: credits each month; $discount: percent off every request
plan-invoice-description =
    { $discount ->
        [0] { $credits } credits every month for pictures, edits, videos and dubbing in this bot. Renews monthly until cancelled; see /terms.
       *[other] { $credits } credits every month and { $discount }% off every request in this bot. Renews monthly until cancelled; see /terms.
    }
plan-invoice-description-test = TEST subscription, no real Stars are charged. { $credits } credits every month in this bot.
plan-price-label = { $credits } credits a month
