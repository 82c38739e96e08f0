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

    برای دیدن کارهایی که انجام می‌دهم { "/help" } را بفرستید.

# $name: the user's first name; $available: the balance
start-welcome-back =
    { $name }، دوباره خوش آمدید! 👋
    موجودی: { $available } اعتبار.

    برای دیدن کارهایی که انجام می‌دهم { "/help" } را بفرستید.

# /help's first paragraph; the commands (from the chat's menu), limits, prices, inline mode and the Gallery follow (bot/features/help.ts)
help =
    برای شما با هوش مصنوعی می‌سازم: تصویر از روی توضیح، ویرایش عکس‌های شما، ویدیوی کوتاه، و دوبله صدا و ویدیو به زبانی دیگر.
    هزینه هر درخواست به اعتبار است و پیش از تأیید به شما نشان داده می‌شود.

# $available: credits free to spend; $held: credits reserved for requests still running
balance =
    💳 اعتبار شما
    قابل استفاده: { $available }
    رزروشده برای درخواست‌های در جریان: { $held }

language-choose = زبان را انتخاب کنید:
language-set = انجام شد: از این پس فارسی صحبت می‌کنم.

cancel-nothing = کاری برای لغو وجود ندارد.

fallback-unknown = متوجه نشدم. برای دیدن کارهایی که انجام می‌دهم { "/help" } را بفرستید.
people-only = لطفاً با حساب خودتان بنویسید: من فقط به افراد پاسخ می‌دهم، نه به مدیران ناشناس، کانال‌ها یا ربات‌ها.

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
    ‏{ $operation }
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
btn-report = ⚠️ گزارش
btn-edit-result = ✏️ ویرایش همین

## Generations: engine and one-line forms

gen-failed-unavailable =
    متأسفیم، استودیو در حال حاضر در دسترس نیست و این درخواست شروع نشد.
    { $price } اعتباری که برای آن کنار گذاشته شده بود به موجودی شما برگشت.
gen-done-late = بالاخره آماده شد! ✨ این یکی رایگان است.
gen-undeliverable =
    متأسفیم، نتیجه را نتوانستیم اینجا برای شما بفرستیم.
    { $price } اعتباری که بابت آن کسر شده بود به موجودی شما برگشت.
gen-too-big-link = این فایل برای تلگرام بیش از حد بزرگ است. از این لینک دانلود کنید (تا { $days } روز معتبر است):
reason-invalid-request = استودیو نمی‌تواند با این تنظیمات آن را بسازد

## Guided conversations, /history and /cancel

cmd-image = ساخت تصویر از روی توضیح
cmd-edit = ویرایش عکس‌های شما
cmd-video = ساخت ویدیوی کوتاه
cmd-dub = دوبله صدا یا ویدیو به زبانی دیگر
cmd-history = درخواست‌های اخیر شما

cv-ask-prompt-image =
    🖼 تصویری را که می‌خواهید به فارسی یا انگلیسی توضیح دهید.
    مثلاً: فانوس دریایی قرمز در غروب، آبرنگ
cv-ask-prompt-video =
    🎬 ویدیو را توضیح دهید: صحنه، حرکت دوربین و حال‌وهوا.
    مثلاً: موج‌هایی که هنگام غروب به ساحل می‌رسند، نمای آرام از پهپاد
cv-btn-example = ✨ امتحان با همین مثال
cv-example-image = فانوس دریایی قرمز در غروب، آبرنگ
cv-example-video = موج‌هایی که هنگام غروب به ساحل می‌رسند، نمای آرام از پهپاد
cv-ask-prompt-edit =
    ✏️ چه چیزی تغییر کند؟ بگویید چه چیزی بماند و چه چیزی عوض شود.
    مثلاً: چهره بماند، پس‌زمینه جنگلی برفی شود
cv-ask-photos =
    ✏️ ۱ تا { $max } عکس برای ویرایش بفرستید: عکس تکی، آلبوم، فایل تصویر یا لینک https تصویر.
    سپس بنویسید چه چیزی تغییر کند.
cv-photos-got =
    📎 { $count } از { $max } تصویر دریافت شد.
    { $count ->
        [3] حالا بنویسید چه چیزی تغییر کند، یا «ادامه» را بزنید.
       *[other] عکس دیگری بفرستید، یا بنویسید چه چیزی تغییر کند.
    }
cv-photos-first = لطفاً اول یک عکس (یا لینک https یک تصویر) بفرستید؛ سپس بنویسید چه چیزی تغییر کند.
cv-ask-media =
    🎙 صدا یا ویدیویی را که باید دوبله شود بفرستید: فایل صوتی، ویدیو، پیام صوتی، فایل یا لینک https آن.
    تا { $minutes } دقیقه (بیش از ۵ دقیقه در چند قسمت دوبله و به هم وصل می‌شود). فایل‌های بزرگ‌تر از { $upload } مگابایت را با لینک بفرستید (تا { $limit } مگابایت).

cv-prompt-empty = توضیح خالی است. لطفاً بنویسید چه می‌خواهید.
cv-prompt-no-words = توضیح باید کلمه یا ایموجی داشته باشد: فقط علامت‌ها چیزی نمی‌گویند که بتوانم بسازم. لطفاً بنویسید چه می‌خواهید، مثلاً «یک فانوس دریایی قرمز هنگام غروب».
cv-prompt-too-long = این توضیح { $length } نویسه دارد؛ حداکثر { $max } نویسه پذیرفته می‌شود. لطفاً کوتاه‌ترش کنید.
cv-prompt-not-text = لطفاً توضیح را به صورت پیام متنی بنویسید.
cv-prompt-sticker = استیکر نمی‌تواند توضیح باشد 🙂 لطفاً آنچه می‌خواهید را به صورت متن بنویسید.
cv-photo-sticker = این یک استیکر است. لطفاً یک عکس (یا فایل تصویر) بفرستید.
cv-photo-not-image = این تصویر نیست. لطفاً یک عکس، فایل تصویر یا لینک https یک تصویر بفرستید.
cv-photo-too-many = ویرایش حداکثر { $max } تصویر می‌پذیرد؛ { $max } تصویر اول را نگه داشتم.
cv-file-too-big-telegram = حجم این فایل { $size } مگابایت است؛ تلگرام اجازه می‌دهد ربات‌ها حداکثر ۲۰ مگابایت دانلود کنند. فایل کوچک‌تر یا لینک https آن را (تا ۱۰۰ مگابایت) بفرستید.
cv-file-too-big-service = حجم این فایل { $size } مگابایت است؛ استودیو فایل‌های تا { $limit } مگابایت را می‌پذیرد. لطفاً فایل کوچک‌تری بفرستید.
cv-media-too-long = طول این فایل { $minutes } دقیقه و { $seconds } ثانیه است؛ استودیو فایل‌های تا { $limit } دقیقه را دوبله می‌کند. لطفاً فایل کوتاه‌تری بفرستید.
cv-media-not-media = لطفاً یک فایل صوتی یا ویدیویی (MP3، WAV، M4A، OGG، WEBM، MP4، MOV)، پیام صوتی یا لینک https آن را بفرستید.
cv-link-not-https = فقط لینک‌های https پذیرفته می‌شوند (http نه). لطفاً لینک https بفرستید.
cv-use-buttons = لطفاً از دکمه‌های بالا استفاده کنید، یا برای توقف { "/cancel" } را بفرستید.
cv-expired-button = این منو دیگر فعال نیست.
cv-cancelled = لغو شد. هیچ اعتباری کسر نشد.
cv-no-price = این ترکیب هنوز قیمت ندارد. لطفاً گزینه‌های دیگری انتخاب کنید.
cv-invalid = این درخواست قابل انجام نیست: { $problem }
cv-queue-position = جایگاه در صف: { $position }. ممکن است کمی بیشتر از معمول طول بکشد.

cv-title-image = 🖼 تصویر جدید
cv-title-edit = ✏️ ویرایش عکس
cv-title-video = 🎬 ویدیوی جدید
cv-title-dub = 🎙 دوبله
# the options' names: the summary's lines and the Mini App's fields
cv-label-prompt = توضیح
cv-label-model = مدل
cv-label-aspect = نسبت تصویر
cv-label-resolution = کیفیت
cv-label-count = تعداد تصاویر
cv-label-duration = مدت
cv-label-audio = صدا
cv-label-web = جستجوی وب
cv-label-target = دوبله به
cv-label-source = زبان گفتار
cv-line-prompt = ‏{ cv-label-prompt }: { $value }
cv-line-photos = تصاویر: { $value }
cv-line-model = ‏{ cv-label-model }: { $value }
cv-line-aspect = ‏{ cv-label-aspect }: { $value }
cv-line-resolution = ‏{ cv-label-resolution }: { $value }
cv-line-count = ‏{ cv-label-count }: { $value }
cv-line-duration = { cv-label-duration }: { $value } ثانیه
cv-line-audio = ‏{ cv-label-audio }: { $value }
cv-line-web = ‏{ cv-label-web }: { $value }
cv-line-file = فایل: { $value }
cv-line-length = طول: { $minutes }:{ $seconds }
cv-line-length-unknown = طول: نامعلوم (لینک با قیمت { $minutes } دقیقه محاسبه می‌شود؛ فقط به اندازهٔ طول واقعی آن پرداخت می‌کنید)
cv-line-target = ‏{ cv-label-target }: { $value }
cv-line-source = ‏{ cv-label-source }: { $value }
cv-line-price = 💳 هزینه: { $price } اعتبار (موجودی: { $available })
cv-line-plan-discount = 📅 { $discount }٪ تخفیف با اشتراک ماهانهٔ شما
cv-line-no-price = 💳 این گزینه‌ها قیمت ندارند (موجودی: { $available })
cv-on = روشن
cv-off = خاموش
cv-aspect-auto = خودکار
cv-lang-auto = تشخیص خودکار
cv-seconds = { $value } ثانیه
# in parentheses: a middle dot beside Persian digits reads as a zero (۰)
cv-choice-price = { $label } ({ $price } اعتبار)

cv-btn-model = 🧠 { $value }
cv-btn-aspect = 📐 { $value }
cv-btn-resolution = 🖥 { $value }
# a counted noun stays singular in Persian: one form for every number
cv-btn-count = { $value ->
    [one] 🔢 { $value } تصویر
   *[other] 🔢 { $value } تصویر
}
cv-btn-duration = ⏱ { $value } ثانیه
cv-btn-audio = 🔊 صدا: { $value }
cv-btn-web = 🌐 جستجوی وب: { $value }
cv-btn-target = 🗣 به: { $value }
cv-btn-source = 👂 از: { $value }
cv-btn-confirm = ✅ تأیید · { $price } اعتبار
cv-btn-confirm-no-price = ✅ تأیید
cv-btn-back = ➡️ بازگشت
cv-btn-cancel = ✖️ لغو
cv-btn-continue = ⬅️ ادامه
cv-btn-prev = ▶️
cv-btn-next = ◀️
# a picker's title when its choices take several pages
cv-pick-page = { $title } (صفحهٔ { $page } از { $pages })

cv-pick-model-image = مدل را انتخاب کنید (قیمت با گزینه‌های فعلی شما):
cv-pick-model-video = مدل را انتخاب کنید (قیمت با گزینه‌های فعلی شما):
cv-pick-aspect = نسبت تصویر را انتخاب کنید:
cv-pick-resolution = کیفیت را انتخاب کنید:
cv-pick-count = چند تصویر؟
cv-pick-duration = مدت ویدیو چند ثانیه باشد؟
cv-pick-target = به چه زبانی دوبله شود؟
cv-pick-source = زبان گفتار در فایل چیست؟

dub-lang-fa = فارسی
dub-lang-en = انگلیسی
dub-lang-ar = عربی
dub-lang-tr = ترکی
dub-lang-de = آلمانی
dub-lang-fr = فرانسوی
dub-lang-es = اسپانیایی
dub-lang-it = ایتالیایی
dub-lang-pt = پرتغالی
dub-lang-ru = روسی
dub-lang-ja = ژاپنی
dub-lang-ko = کره‌ای
dub-lang-zh = چینی
dub-lang-hi = هندی
dub-lang-nl = هلندی
dub-lang-pl = لهستانی
dub-lang-sv = سوئدی
dub-lang-id = اندونزیایی
dub-lang-uk = اوکراینی
dub-lang-ro = رومانیایی
dub-lang-el = یونانی
dub-lang-cs = چکی
dub-lang-da = دانمارکی
dub-lang-fi = فنلاندی
dub-lang-bg = بلغاری
dub-lang-hr = کرواتی
dub-lang-sk = اسلواکی
dub-lang-ms = مالایی
dub-lang-fil = فیلیپینی
dub-lang-ta = تامیلی

cancel-conversation = لغو شد. هیچ اعتباری کسر نشد.
cancel-generation = درخواست شما که در صف بود لغو شد؛ { $price } اعتبار آن به موجودی شما برگشت.
cancel-status = ✖️ لغو شد. اعتبار به موجودی شما برگشت.
cancel-too-late = درخواست شما در حال انجام است و دیگر لغو نمی‌شود. فقط در صورت موفقیت هزینه پرداخت می‌کنید.

history-empty = هنوز درخواستی ندارید. { "/image" }، { "/edit" }، { "/video" } یا { "/dub" } را امتحان کنید.
history-title = 🗂 درخواست‌های اخیر شما:
# Each line starts with a right-to-left mark (U+200F): its words are all isolated.
history-line =
    ‏{ $index }. { $operation } · { $state } · { $cost }
    ‏{ $what } ({ $date } { $time })
history-state-queued = ⏳ در صف
history-state-submitting = ⏳ در حال ارسال
history-state-pending = ⚙️ در حال انجام
history-state-completed = 📦 در حال تحویل
history-state-delivering = 📦 در حال تحویل
history-state-delivered = ✅ تحویل شد
history-state-failed = ❌ ناموفق
history-state-rejected = ❌ پذیرفته نشد
history-state-expired = ⌛ بیش از حد طول کشید
history-state-cancelled = ✖️ لغو شد
history-cost-charged = { $cost } اعتبار
history-cost-held = { $cost } اعتبار رزروشده
history-cost-none = بدون هزینه
history-btn-show = 📤 { $index }
history-btn-retry = 🔁 { $index } تلاش دوباره
history-gone = این نتیجه دیگر در دسترس نیست.

## Guided conversations: confirming
# $price: the price now, in credits
cv-price-changed = ⚠️ قیمت از زمان نمایش این منو تغییر کرده است: اکنون { $price } اعتبار است. برای پذیرفتن، «تأیید» را بزنید.

## Alerts to the admins (each kind at most once per window)
alert-service-refused = ⚠️ سرویس رسانه درخواست ما را رد کرد: { $problem }
    ارسال متوقف شده و خودکار دوباره امتحان می‌شود.
alert-audit = ⚠️ بازبینی دفتر اعتبار { $count } مورد ناسازگاری یافت. برای جزئیات `npm run audit` را اجرا کنید.
alert-undeliverable = ⚠️ یک نتیجه تحویل نشد و هزینه‌اش بازگردانده شد: { $generation } ({ $why }).
alert-orphan = ⚠️ سرویس کاری را اجرا کرد که به هیچ درخواستی تعلق ندارد: { $task } ({ $credits } اعتبار سرویس).
alert-backlog = ⚠️ صف { $queue } اکنون { $waiting } کار در انتظار دارد (حد: { $limit }).
