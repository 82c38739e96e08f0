## Refused prompts: /moderation for admins, and what a refused request says

cmd-moderation = واژه‌ها و الگوهای ممنوع: افزودن، حذف، فهرست
# $max: the longest rule
moderation-usage =
    { "/moderation" } add <واژه یا الگو> · { "/moderation" } remove <واژه یا الگو> · { "/moderation" } list
    هر قاعده یک یا چند واژه است (تا { $max } نویسه) که به‌صورت واژهٔ کامل و بی‌توجه به بزرگی و کوچکی حروف سنجیده می‌شود؛ * به‌جای هر چند حرف می‌نشیند. درخواستی که با قاعده‌ای بخواند پیش از هر کسر اعتباری رد می‌شود.
# $rule: the rule as kept (lower case)
moderation-added = افزوده شد: از این پس درخواست‌های دارای «{ $rule }» رد می‌شوند.
moderation-exists = «{ $rule }» از پیش ممنوع است.
moderation-removed = حذف شد: «{ $rule }» دیگر ممنوع نیست.
moderation-missing = «{ $rule }» در میان واژه‌های ممنوع نیست. برای دیدن آن‌ها { "/moderation" } list را بفرستید.
moderation-settings = «{ $rule }» از تنظیمات ربات (REFUSED_PROMPTS) می‌آید و فقط همان‌جا حذف می‌شود.
moderation-list-title = 🚫 واژه‌ها و الگوهای ممنوع:
moderation-list-empty = هیچ واژه یا الگویی ممنوع نیست. با { "/moderation" } add <واژه> یکی بیفزایید.
moderation-line-settings = • { $rule } (تنظیمات)
moderation-line-admin = • { $rule }
prompt-refused = این درخواست اینجا انجام‌شدنی نیست. چیزی کسر نشد؛ لطفاً چیز دیگری توصیف کنید.
# $today, $week: requests refused for their prompt since midnight UTC, and in the last 7 days
stats-refused-prompts = 🚫 درخواست‌های ردشده: امروز { $today } · در ۷ روز { $week }

## Reports of results in groups

report-thanks = سپاس: مدیران ربات آن را بررسی می‌کنند.
report-already = این را پیش‌تر گزارش کرده‌اید؛ دست مدیران است.
report-gone = این نتیجه دیگر گزارش‌شدنی نیست.
# $group: the group's title; $maker, $reporter: users as admins see them; $operation; $price: credits; $prompt
report-admin =
    ⚠️ نتیجه‌ای در «{ $group }» گزارش شد
    سازنده: { $maker } · { $operation } · { $price } اعتبار
    توضیح: { $prompt }
    گزارش‌دهنده: { $reporter }
report-remove-button = 🗑 حذف از گروه
report-refund-button = ↩️ بازپرداخت
report-ban-button = 🚫 مسدود کردن سازنده
report-dismiss-button = ✖️ رد گزارش
# $count: messages deleted
report-removed = 🗑 از گروه حذف شد ({ $count } پیام).
report-remove-failed = نتیجه حذف نشد: شاید ربات اجازهٔ حذف پیام در آنجا را ندارد، یا بیش از ۴۸ ساعت از آن گذشته است. یکی از مدیران گروه می‌تواند آن را حذف کند.
# $credits: credits given back to the maker
report-refunded = ↩️ بازپرداخت شد: { $credits } اعتبار به سازنده برگشت.
report-refund-already = پیش‌تر بازپرداخت شده است: چیزی برای برگرداندن نمانده.
report-refund-none = برای این نتیجه چیزی کسر نشده بود: بازپرداختی نیست.
# $user: the maker, as admins see users
report-banned = 🚫 { $user } مسدود شد: ربات با یک پیام مؤدبانه پاسخش را می‌دهد و دیگر چیزی نمی‌سازد.
report-ban-already = { $user } پیش‌تر مسدود شده بود.
report-ban-admin = { $user } از مدیران ربات است و مسدود نمی‌شود.
report-dismissed = ✖️ رد شد: نتیجه می‌ماند.
