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

## Generations: engine and one-line forms

gen-failed-unavailable =
    متأسفیم، استودیو در حال حاضر در دسترس نیست و این درخواست شروع نشد.
    { $price } اعتباری که برای آن کنار گذاشته شده بود به موجودی شما برگشت.
gen-done-late = بالاخره آماده شد! ✨ این یکی رایگان است.
gen-too-big-link = این فایل برای تلگرام بیش از حد بزرگ است. از این لینک دانلود کنید (تا ۷ روز معتبر است):
reason-invalid-request = استودیو نمی‌تواند با این تنظیمات آن را بسازد
quick-usage-image = دستور /image را همراه با توضیح بفرستید، مثلاً: /image فانوس دریایی قرمز در غروب
quick-usage-video = دستور /video را همراه با توضیح صحنه بفرستید، مثلاً: /video موج‌هایی که هنگام غروب به ساحل می‌رسند
quick-usage-edit = یک عکس با کپشن /edit و تغییر مورد نظر بفرستید، یا روی یک عکس با /edit و تغییر مورد نظر پاسخ دهید.
quick-usage-dub =
    روی یک فایل صوتی یا ویدیویی با /dub و زبان مقصد پاسخ دهید، یا /dub <زبان> <لینک https> را بفرستید.
    زبان‌ها: { $languages }
quick-invalid = این درخواست قابل انجام نیست: { $problem }
quick-no-price = این گزینه هنوز قیمت ندارد. لطفاً گزینهٔ دیگری انتخاب کنید.
quick-expired = این پیشنهاد منقضی شده است. لطفاً دستور را دوباره بفرستید.
quick-cancelled = لغو شد. هیچ اعتباری کسر نشد.
input-too-big-telegram = این فایل بزرگ‌تر از { $max } مگابایت است، یعنی بیشتر از حدی که تلگرام اجازه می‌دهد ربات دانلود کند. فایل کوچک‌تر یا لینک https آن را بفرستید.
input-too-long = این فایل بیشتر از { $max } دقیقه است، یعنی طولانی‌تر از حدی که استودیو می‌تواند دوبله کند. لطفاً فایل کوتاه‌تری بفرستید.
input-link-not-https = لطفاً یک لینک https بفرستید (لینک‌های http پذیرفته نمی‌شوند).
edit-how = روی تصویر با /edit و تغییر مورد نظر پاسخ دهید، مثلاً: /edit آسمان را بنفش کن
