## Command menu (setMyCommands)

cmd-start = شروع و دریافت اعتبار هدیه
cmd-help = کارهایی که انجام می‌دهم
cmd-balance = موجودی اعتبار
cmd-language = تغییر زبان
cmd-cancel = لغو کار در جریان

## Always-available handlers

# $name: the user's first name; $amount: credits just granted; $available: the balance after it
start-welcome-new =
    سلام { $name }! 👋
    به استودیوی رسانه خوش آمدید: با هوش مصنوعی تصویر می‌سازم، عکس ویرایش می‌کنم، ویدیو می‌سازم و صدا و ویدیو را دوبله می‌کنم.

    🎁 { $amount } اعتبار هدیه برای امتحان کردن به حساب شما اضافه شد.
    موجودی: { $available } اعتبار.

    برای دیدن کارهایی که انجام می‌دهم /help را بفرستید.

# $name: the user's first name; $available: the balance
start-welcome-back =
    { $name }، دوباره خوش آمدید! 👋
    موجودی: { $available } اعتبار.

    برای دیدن کارهایی که انجام می‌دهم /help را بفرستید.

help =
    برای شما با هوش مصنوعی می‌سازم:
    • تصویر از روی توضیح
    • ویرایش عکس‌های شما
    • ویدیوی کوتاه
    • دوبله صدا و ویدیو به زبانی دیگر

    هزینه هر کار به اعتبار است و پیش از تأیید به شما نشان داده می‌شود.

    /balance — موجودی اعتبار
    /language — تغییر زبان
    /cancel — لغو کار در جریان
    /help — همین راهنما

# $available: credits free to spend; $held: credits reserved for requests still running
balance =
    💳 اعتبار شما
    قابل استفاده: { $available }
    رزروشده برای درخواست‌های در جریان: { $held }

language-choose = زبان را انتخاب کنید:
language-set = انجام شد: از این پس فارسی صحبت می‌کنم.

cancel-nothing = کاری برای لغو وجود ندارد.

fallback-unknown = متوجه نشدم. برای دیدن کارهایی که انجام می‌دهم /help را بفرستید.

rate-limited = پیام‌های شما خیلی سریع می‌رسند. لطفاً چند ثانیه صبر کنید و دوباره امتحان کنید.

error-generic = متأسفیم، مشکلی از طرف ما پیش آمد. لطفاً کمی بعد دوباره امتحان کنید.

## Operations

op-image = ساخت تصویر
op-edit = ویرایش تصویر
op-video = ساخت ویدیو
op-dub = دوبله

## Generations

gen-queued = درخواست شما در صف قرار گرفت. به محض آماده شدن، نتیجه را همین‌جا می‌فرستم.
gen-submitting = در حال ارسال درخواست شما به استودیو…
gen-generating = در حال ساخت… نتیجه را به محض آماده شدن همین‌جا می‌فرستم.
gen-done = آماده است! ✨
# $price: the credits that were held and are now returned
gen-failed =
    متأسفیم، این درخواست ناموفق بود.
    { $price } اعتبار رزروشده برای آن به موجودی شما برگشت.
# $reason: why the service refused, already translated
gen-rejected =
    این درخواست پذیرفته نشد: { $reason }
    اعتباری از شما کسر نشد.
# $price: the credits that were held and are now returned
gen-expired =
    انجام این درخواست بیش از حد طول کشید و متوقف شد.
    { $price } اعتبار رزروشده برای آن به موجودی شما برگشت.
# $price: the cost; $available: the balance; $missing: how many more are needed
gen-insufficient =
    اعتبار کافی نیست: هزینه این کار { $price } اعتبار است و موجودی شما { $available } اعتبار.
    { $missing } اعتبار دیگر لازم دارید.
# $operation: one of op-*, already translated; $prompt: the user's text; $price: credits
gen-confirm-summary =
    { $operation }
    متن درخواست: { $prompt }
    هزینه: { $price } اعتبار

    تأیید می‌کنید؟
# $prompt: the user's text; $cost: credits charged
gen-caption =
    { $prompt }
    — { $cost } اعتبار
gen-late-free = درخواست قبلی شما سرانجام آماده شد. این نتیجه رایگان است، چون اعتبارتان پیش‌تر برگردانده شده بود.

## Buttons

btn-confirm = ✅ تأیید
btn-cancel = ✖️ لغو
btn-regenerate = 🔁 دوباره
btn-edit-result = ✏️ ویرایش همین
