## /invite and invite links

cmd-invite = Invite friends, get bonus credits
# $link: the user's invite link; $amount: bonus credits to each side; $invited: people who came through it; $rewarded: those of them who bought
referral-invite =
    🎁 Invite your friends
    Your invite link:
    { $link }

    When someone new to me opens it and later buys credits for the first time, you both get { $amount } bonus credits.

    Invited so far: { $invited } (bought: { $rewarded })
# $link, $invited, $rewarded: as above
referral-invite-no-bonus =
    🎁 Invite your friends
    Your invite link:
    { $link }

    Invited so far: { $invited } (bought: { $rewarded })
referral-unavailable = Invite links are not available right now. Please try again later.
# $name: the inviter's first name; $amount: bonus credits to each side
referral-joined = 🤝 You came through { $name }'s invite: at your first purchase you both get { $amount } bonus credits.
referral-own-link = This is your own invite link: share it with your friends.
referral-not-new = Invite links only count for people who are new to me; nothing changed.
# $amount: bonus credits just added; $name: the invited user's first name
referral-bonus-paid = 🎉 { $name }, whom you invited, made their first purchase: { $amount } bonus credits are on your balance.
