## /invite and invite links

cmd-invite = دعوت از دوستان و اعتبار هدیه
# $link: the user's invite link; $amount: bonus credits to each side; $invited: people who came through it; $rewarded: those of them who bought
referral-invite =
    🎁 دوستانتان را دعوت کنید
    پیوند دعوت شما:
    { $link }

    وقتی کسی که تازه با من آشنا می‌شود آن را باز کند و بعد برای اولین بار اعتبار بخرد، هر دوی شما { $amount } اعتبار هدیه می‌گیرید.

    دعوت‌شدگان تا امروز: { $invited } (خرید کرده‌اند: { $rewarded })
# $link, $invited, $rewarded: as above
referral-invite-no-bonus =
    🎁 دوستانتان را دعوت کنید
    پیوند دعوت شما:
    { $link }

    دعوت‌شدگان تا امروز: { $invited } (خرید کرده‌اند: { $rewarded })
referral-unavailable = پیوند دعوت الان در دسترس نیست. لطفاً بعداً دوباره امتحان کنید.
# $name: the inviter's first name; $amount: bonus credits to each side
referral-joined = 🤝 شما با دعوت { $name } آمده‌اید: با اولین خریدتان هر دوی شما { $amount } اعتبار هدیه می‌گیرید.
referral-own-link = این پیوند دعوت خود شماست: آن را برای دوستانتان بفرستید.
referral-not-new = پیوند دعوت فقط برای کسانی است که تازه با من آشنا می‌شوند؛ چیزی تغییر نکرد.
# $amount: bonus credits just added; $name: the invited user's first name
referral-bonus-paid = 🎉 { $name } که دعوتش کرده بودید اولین خریدش را انجام داد: { $amount } اعتبار هدیه به موجودی شما اضافه شد.
