## Promo codes: /redeem, promo links, and the admins' /promo

cmd-redeem = Redeem a promo code
cmd-promo = Promo codes: create, list, end
promo-redeem-usage = Send the code after the command, like this: /redeem SPRING25
# $code: the code as typed, in capitals
promo-unknown = There is no promo code { $code }. Check the spelling and try again.
# $credits: credits the code gave; $available: the balance now
promo-granted = 🎟 Promo code { $code } redeemed: +{ $credits } credits. You have { $available } credits now.
promo-already = You have already redeemed { $code }: each code counts once per person.
promo-ended = The promo code { $code } has ended.
promo-expired = The promo code { $code } has expired.
promo-used-up = The promo code { $code } has been used up.
promo-not-new = The promo code { $code } is for new users only.
promo-usage =
    🎟 Promo codes
    /promo create CODE CREDITS USES [DAYSd] [new]: a code giving each user CREDITS, for up to USES people, ending after DAYS days if given, for users new to me if "new" is added (example: /promo create SPRING25 50 100 30d new)
    /promo list: every code and its redemptions
    /promo end CODE: no redemption after now
promo-bad-code = A code is 3 to 32 letters A–Z, digits, _ or -.
# $maxCredits, $maxUses: the most one code may give each user, and the most uses
promo-bad-number = Credits and uses are whole numbers from 1 (at most { $maxCredits } credits and { $maxUses } uses).
# $link: the promo link to share
promo-created = ✅ Promo code { $code } created. Share it as it is, or as this link: { $link }
promo-created-no-link = ✅ Promo code { $code } created. Users redeem it with /redeem { $code }.
promo-taken = There is a promo code { $code } already: choose another.
promo-ended-now = Promo code { $code } ended: nobody can redeem it from now on.
promo-not-found = There is no running promo code { $code }.
promo-list-empty = No promo codes yet.
promo-list-title = 🎟 Promo codes, the newest first:
# $used, $maxUses: redemptions and the most; $given: credits given in all; $state: a promo-state-* text
promo-list-line = { $code }: { $credits } credits each · redeemed { $used } of { $maxUses } · { $given } credits given · { $state }
promo-state-running = running
promo-state-new-only = running, new users only
# $date: YYYY-MM-DD (UTC)
promo-state-until = running until { $date }
promo-state-new-only-until = running until { $date }, new users only
promo-state-ended = ended
promo-state-expired = expired
