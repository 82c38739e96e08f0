# Admin commands (ADMIN_IDS only) and what a banned user is told
cmd-stats = Statistics: users, requests, credits, margin
cmd-user = One user: balance, ledger, requests
cmd-grant = Give or take credits (with a reason)
cmd-ban = Ban a user
cmd-unban = Lift a ban
cmd-broadcast = Send a message to users
cmd-broadcast_cancel = Stop the running broadcast

banned-notice = Sorry, your account has been suspended, so I cannot take requests from you. Nothing was charged.
admin-unknown-user = I do not know a user { $given }.
admin-did-you-mean = Did you mean:
admin-several-users = { $count } users are called { $given }:
admin-target-ways = Name the user by their numeric id or their @username (they must have written to me), or forward a message of theirs here and reply to it with the command.
admin-hidden-user = { $given } hides their account in forwarded messages, so Telegram does not tell me who they are. Use their numeric id or @username instead.
admin-not-a-person = That message was forwarded from a chat or a channel, not from a person. Use the user's numeric id or @username.

stats-title = 📊 Statistics
stats-users = 👥 Users: { $total } · active in 1 / 7 / 30 days: { $active1 } / { $active7 } / { $active30 } · blocked the bot: { $blocked } · banned: { $banned }
stats-generations-today = 🎨 Requests today (since 00:00 UTC)
stats-generations-week = 🎨 Requests in the last 7 days
stats-generations-all = 🎨 Requests, all time
stats-none = none
stats-operation-line = { $operation }: { $total } — { $states }
stats-state-count = { $state } { $count }
stats-state-queued = queued
stats-state-submitting = submitting
stats-state-pending = in progress
stats-state-completed = completed
stats-state-delivering = delivering
stats-state-delivered = delivered
stats-state-failed = failed
stats-state-rejected = rejected
stats-state-expired = expired
stats-state-cancelled = cancelled
stats-credits = 💳 Credits: granted { $granted } · sold { $sold } · adjusted { $adjusted } · held now { $held } · charged { $charged } · refunded { $refunded }
stats-service = ⚙️ Service credits spent: { $spent } on completed tasks, plus { $orphanCredits } on { $orphanTasks } orphan tasks
stats-margin = 📈 Margin: { $margin } credits ({ $percent }% of what was charged)
stats-margin-note = Margin = credits charged for delivered work − refunds − service credits spent (completed tasks and orphans), counting one of our credits as one service credit. Granted or sold credits not yet spent are not in it.
stats-promo-title = 🎟 Promo codes (the newest 10; /promo list):
stats-below-cost-title = ⚠️ { $count ->
    [one] One price is
   *[other] { $count } prices are
} below the service's cost (each such request loses credits; raise them in the price settings):
stats-below-cost-line = • { $choice }: price { $price }, service cost { $cost }

user-usage = Usage: /user <id, @username or first name>, or /user in reply to a message of theirs you forwarded here
user-title = 👤 { $user } · language { $language }
user-balance = 💳 Balance: { $available } available · { $held } held
user-banned = 🚫 Banned since { $since } UTC
user-not-banned = Not banned
user-blocked = Blocked the bot since { $since } UTC
user-seen = First seen { $first } · last seen { $last } (UTC)
user-entries = 📒 Latest ledger entries
user-held-delta = held { $delta }
user-generations = 🎨 Latest requests
user-price = { $price } credits

grant-usage = Usage: /grant <id, @username or first name> <credits> [reason], or /grant <credits> [reason] in reply to a message of theirs you forwarded here; a negative amount takes credits and needs a reason.
grant-problem-usage = Who, and how many credits?
grant-problem-amount = The amount must be a whole number, such as 50 or -20.
grant-problem-zero = An amount of 0 changes nothing.
grant-problem-too-large = At most { $max } credits either way in one /grant.
grant-problem-reason-required = Taking credits needs a reason, after the amount.
grant-problem-reason-too-long = The reason is too long (200 characters at most).
grant-ask-add = Give { $credits } credits to { $user }? They have { $available } available.
grant-ask-take = Take { $credits } credits from { $user }? They have { $available } available.
grant-ask-take-partly = Take { $credits } credits from { $user }? They have only { $available } available: at most that is taken, never below zero.
grant-reason = Reason: { $reason }
grant-btn-confirm = ✅ Confirm
grant-btn-cancel = ✖ Cancel
grant-done-added = ✅ Gave { $credits } credits to { $user }. Available now: { $available }.
grant-done-taken = ✅ Took { $credits } credits from { $user }. Available now: { $available }.
grant-done-partly = ✅ Took { $credits } credits from { $user }; { $missing } could not be taken (the balance does not go below zero). Available now: { $available }.
grant-already = This was already done; nothing changed.
grant-cancelled = Cancelled; nothing changed.
grant-missing = This confirmation is no longer valid; send /grant again.
grant-told = They were told.
grant-not-told = They were not told: they have not started the bot, or they blocked it.
grant-notice-added = 💳 An admin added { $credits } credits to your balance. You now have { $available } credits.
grant-notice-taken = 💳 An admin took { $credits } credits from your balance. You now have { $available } credits.

ban-usage = Usage: /ban <id, @username or first name>, or /ban in reply to a message of theirs you forwarded here
ban-admin = { $user } is an admin and cannot be banned.
ban-done = 🚫 { $user } is banned: their messages get a polite refusal and they cannot spend.
ban-already = { $user } was already banned.
ban-cancelled = { $count } queued request(s) cancelled; { $credits } credits released to their balance.
unban-usage = Usage: /unban <id, @username or first name>, or /unban in reply to a message of theirs you forwarded here
unban-done = ✅ { $user } is no longer banned.
unban-not-banned = { $user } is not banned.
