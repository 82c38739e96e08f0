## What a group sees: the group twins of texts about one person's account
## (src/platform/i18n/audience.ts swaps each key for its "-group" twin in a group, a topic and inline mode)

# $price: the exact price
cv-line-price-group = 💳 قیمت: { $price } اعتبار
cv-line-price-up-to-group = 💳 هزینه: حداکثر { $price } اعتبار، بر پایهٔ طول دوبله‌شده
cv-line-no-price-group = 💳 برای این گزینه‌ها قیمتی نیست
# $price: the cost; $available, $missing: not shown to a group
gen-insufficient-group =
    اعتبار برای این کار کافی نیست ({ $price } اعتبار).
    جزئیات در گفتگوی خصوصی با من است.
# $price: the cost; $name: the first name of the one who placed it
inline-insufficient-group =
    اعتبار { $name } برای این کار کافی نیست ({ $price } اعتبار).
    در گفتگوی خصوصی با من اعتبار بخرید و دوباره «تأیید» را بزنید.
# $name: the user's first name; $amount, $available: not shown to a group
start-welcome-new-group =
    سلام { $name }! 👋
    به استودیوی رسانه خوش آمدید: با هوش مصنوعی تصویر می‌سازم، عکس ویرایش می‌کنم، ویدیو می‌سازم و صدا و ویدیو را دوبله می‌کنم.
    اعتبار شما در گفتگوی خصوصی با من است.

    برای دیدن کارهایی که انجام می‌دهم { "/help" } را بفرستید.
# $name: the user's first name; $available: not shown to a group
start-welcome-back-group =
    { $name }، خوش برگشتید! 👋
    اعتبار شما در گفتگوی خصوصی با من است.

    برای دیدن کارهایی که انجام می‌دهم { "/help" } را بفرستید.
# what a group reads instead of a text about one person's account (a feature that forgot the rule, in production)
account-in-private-chat-group = 🔒 این موضوع شخصی است: فقط در گفتگوی خصوصی با من نشانش می‌دهم.

## Personal details asked for in a group (/balance, /history, /buy, too few credits)

# $name: the member's first name
private-sent-group = 🔒 { $name }، آن را در گفتگوی خصوصی‌مان فرستادم.
# $name: the member's first name
private-open-group = 🔒 { $name }، این موضوع شخصی است و فقط در گفتگوی خصوصی با من نشانش می‌دهم: با دکمهٔ زیر آن را باز کنید.
private-open-button = 🔒 باز کردن گفتگوی خصوصی
