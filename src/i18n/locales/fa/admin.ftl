# Admin commands (ADMIN_IDS only) and what a banned user is told
cmd-stats = آمار: کاربران، درخواست‌ها، اعتبار، حاشیه سود
cmd-user = یک کاربر: موجودی، دفتر، درخواست‌ها
cmd-grant = دادن یا کسر اعتبار (با دلیل)
cmd-ban = مسدود کردن کاربر
cmd-unban = رفع مسدودی
cmd-broadcast = ارسال پیام به کاربران
cmd-broadcast_cancel = توقف ارسال همگانی در جریان

banned-notice = متأسفیم، حساب شما معلق شده است و نمی‌توانم درخواستی از شما بپذیرم. هزینه‌ای کسر نشد.
admin-unknown-user = کاربری با { $given } نمی‌شناسم. شناسهٔ عددی یا ‎@نام‌کاربری را بدهید (باید قبلاً به من پیام داده باشد).

stats-title = 📊 آمار
stats-users = 👥 کاربران: { $total } · فعال در ۱ / ۷ / ۳۰ روز: { $active1 } / { $active7 } / { $active30 } · ربات را مسدود کرده‌اند: { $blocked } · مسدودشده: { $banned }
stats-generations-today = 🎨 درخواست‌های امروز (از ساعت ۰۰:۰۰ UTC)
stats-generations-week = 🎨 درخواست‌های ۷ روز گذشته
stats-generations-all = 🎨 همهٔ درخواست‌ها
stats-none = هیچ
stats-operation-line = { $operation }: { $total } — { $states }
stats-state-count = { $state } { $count }
stats-state-queued = در صف
stats-state-submitting = در حال ارسال
stats-state-pending = در حال انجام
stats-state-completed = انجام‌شده
stats-state-delivering = در حال تحویل
stats-state-delivered = تحویل‌شده
stats-state-failed = ناموفق
stats-state-rejected = ردشده
stats-state-expired = منقضی
stats-state-cancelled = لغوشده
stats-credits = 💳 اعتبار: هدیه { $granted } · فروخته { $sold } · اصلاحی { $adjusted } · رزرو فعلی { $held } · کسرشده { $charged } · بازپرداخت { $refunded }
stats-service = ⚙️ اعتبار مصرفی سرویس: { $spent } برای کارهای انجام‌شده، به‌علاوهٔ { $orphanCredits } برای { $orphanTasks } کار بی‌صاحب
stats-margin = 📈 حاشیه سود: { $margin } اعتبار ({ $percent }٪ از مبلغ کسرشده)
stats-margin-note = حاشیه سود = اعتبار کسرشده برای کارهای تحویل‌شده − بازپرداخت‌ها − اعتبار مصرفی سرویس (کارهای انجام‌شده و بی‌صاحب)، با فرض برابری هر اعتبار ما با یک اعتبار سرویس. اعتبار هدیه یا فروخته‌شده‌ای که هنوز خرج نشده در آن نیست.

user-usage = روش استفاده: { "/user" } <شناسه یا ‎@نام‌کاربری>
user-title = 👤 { $user } · زبان { $language }
user-balance = 💳 موجودی: { $available } آزاد · { $held } رزرو
user-banned = 🚫 مسدود از { $since } UTC
user-not-banned = مسدود نیست
user-blocked = ربات را از { $since } UTC مسدود کرده است
user-seen = اولین بار { $first } · آخرین بار { $last } (UTC)
user-entries = 📒 آخرین ردیف‌های دفتر
user-held-delta = رزرو { $delta }
user-generations = 🎨 آخرین درخواست‌ها
user-price = { $price } اعتبار

grant-usage = روش استفاده: { "/grant" } <شناسه یا ‎@نام‌کاربری> <اعتبار> [دلیل]؛ مقدار منفی اعتبار کسر می‌کند و دلیل لازم دارد.
grant-problem-usage = به چه کسی و چند اعتبار؟
grant-problem-amount = مقدار باید عدد صحیح باشد، مثل 50 یا ‎-20.
grant-problem-zero = مقدار صفر چیزی را تغییر نمی‌دهد.
grant-problem-too-large = در هر { "/grant" } حداکثر { $max } اعتبار (مثبت یا منفی).
grant-problem-reason-required = برای کسر اعتبار، دلیل را بعد از مقدار بنویسید.
grant-problem-reason-too-long = دلیل خیلی طولانی است (حداکثر ۲۰۰ نویسه).
grant-ask-add = { $credits } اعتبار به { $user } داده شود؟ موجودی آزاد: { $available }.
grant-ask-take = { $credits } اعتبار از { $user } کسر شود؟ موجودی آزاد: { $available }.
grant-ask-take-partly = { $credits } اعتبار از { $user } کسر شود؟ فقط { $available } موجود است: حداکثر همین مقدار کسر می‌شود و موجودی منفی نمی‌شود.
grant-reason = دلیل: { $reason }
grant-btn-confirm = ✅ تأیید
grant-btn-cancel = ✖ لغو
grant-done-added = ✅ { $credits } اعتبار به { $user } داده شد. موجودی آزاد اکنون: { $available }.
grant-done-taken = ✅ { $credits } اعتبار از { $user } کسر شد. موجودی آزاد اکنون: { $available }.
grant-done-partly = ✅ { $credits } اعتبار از { $user } کسر شد؛ { $missing } اعتبار قابل کسر نبود (موجودی منفی نمی‌شود). موجودی آزاد اکنون: { $available }.
grant-already = این کار قبلاً انجام شده است؛ چیزی تغییر نکرد.
grant-cancelled = لغو شد؛ چیزی تغییر نکرد.
grant-missing = این تأیید دیگر معتبر نیست؛ دوباره { "/grant" } بفرستید.

ban-usage = روش استفاده: { "/ban" } <شناسه یا ‎@نام‌کاربری>
ban-admin = { $user } مدیر است و مسدود نمی‌شود.
ban-done = 🚫 { $user } مسدود شد: پیام‌هایش پاسخی مؤدبانه می‌گیرد و نمی‌تواند اعتبار خرج کند.
ban-already = { $user } از قبل مسدود بود.
ban-cancelled = { $count } درخواست در صف لغو شد؛ { $credits } اعتبار به موجودی‌اش برگشت.
unban-usage = روش استفاده: { "/unban" } <شناسه یا ‎@نام‌کاربری>
unban-done = ✅ مسدودی { $user } برداشته شد.
unban-not-banned = { $user } مسدود نیست.
