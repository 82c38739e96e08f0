## Promo codes: /redeem, promo links, and the admins' /promo

cmd-redeem = استفاده از کد هدیه
cmd-promo = کدهای هدیه: ساختن، فهرست، پایان
promo-redeem-usage = کد را بعد از فرمان بفرستید، این‌طور: { "/redeem" } SPRING25
# $code: the code as typed, in capitals
promo-unknown = کد هدیه‌ای با نام { $code } وجود ندارد. املای آن را بررسی کنید و دوباره امتحان کنید.
# $credits: credits the code gave; $available: the balance now
promo-granted = 🎟 کد هدیه { $code } ثبت شد: { $credits }+ اعتبار. موجودی شما اکنون { $available } اعتبار است.
promo-already = شما پیش‌تر از { $code } استفاده کرده‌اید: هر کد برای هر نفر فقط یک بار است.
promo-ended = کد هدیه { $code } به پایان رسیده است.
promo-expired = مهلت کد هدیه { $code } تمام شده است.
promo-used-up = ظرفیت کد هدیه { $code } پر شده است.
promo-not-new = کد هدیه { $code } فقط برای کاربران تازه است.
promo-usage =
    🎟 کدهای هدیه
    { "/promo" } create CODE CREDITS USES [DAYSd] [new]: کدی که به هر کاربر CREDITS اعتبار می‌دهد، برای حداکثر USES نفر، در صورت ذکر DAYS پس از آن تعداد روز پایان می‌یابد، و با افزودن «new» فقط برای کاربران تازه است (نمونه: { "/promo" } create SPRING25 50 100 30d new)
    { "/promo" } list: همهٔ کدها و دفعات استفاده از آن‌ها
    { "/promo" } end CODE: از این لحظه دیگر قابل استفاده نیست
promo-bad-code = کد باید ۳ تا ۳۲ نویسه از حروف A تا Z، رقم، _ یا - باشد.
# $maxCredits, $maxUses: the most one code may give each user, and the most uses
promo-bad-number = اعتبار و تعداد دفعات باید عدد صحیح از ۱ باشند (حداکثر { $maxCredits } اعتبار و { $maxUses } بار).
# $link: the promo link to share
promo-created = ✅ کد هدیه { $code } ساخته شد. خود کد را یا این پیوند را به اشتراک بگذارید: { $link }
promo-created-no-link = ✅ کد هدیه { $code } ساخته شد. کاربران با { "/redeem" } { $code } از آن استفاده می‌کنند.
promo-taken = کد هدیه‌ای با نام { $code } از قبل هست: نام دیگری انتخاب کنید.
promo-ended-now = کد هدیه { $code } پایان یافت: از این لحظه کسی نمی‌تواند از آن استفاده کند.
promo-not-found = کد هدیهٔ فعالی با نام { $code } وجود ندارد.
promo-list-empty = هنوز کد هدیه‌ای ساخته نشده است.
promo-list-title = 🎟 کدهای هدیه، از تازه‌ترین:
# $used, $maxUses: redemptions and the most; $given: credits given in all; $state: a promo-state-* text
promo-list-line = { $code }: هر نفر { $credits } اعتبار · { $used } از { $maxUses } بار استفاده شده · در مجموع { $given } اعتبار داده شده · { $state }
promo-state-running = فعال
promo-state-new-only = فعال، فقط برای کاربران تازه
# $date: YYYY-MM-DD (UTC)
promo-state-until = فعال تا { $date }
promo-state-new-only-until = فعال تا { $date }، فقط برای کاربران تازه
promo-state-ended = پایان یافته
promo-state-expired = منقضی شده
