# /broadcast (فقط مدیران)
bc-ask = 📣 پیامی را که باید برای همه فرستاده شود بفرستید: متن (قالب‌بندی حفظ می‌شود)، عکس، ویدیو، آلبوم یا فایل.
bc-unsupported = این نوع پیام را نمی‌توان برای همه فرستاد. متن، عکس، ویدیو، آلبوم یا فایل بفرستید.
bc-album = 🖼 آلبوم: { $count } مورد. وقتی همه رسیدند «پیش‌نمایش» را بزنید.
bc-btn-preview = 👁 پیش‌نمایش
bc-preview-above = ⬆️ پیش‌نمایش بالا دقیقاً همان چیزی است که گیرندگان می‌بینند.
bc-pick-audience = 👥 چه کسانی دریافت کنند؟
bc-audience-everyone = همه ({ $count })
bc-audience-active = فعال در { $days } روز گذشته ({ $count })
bc-audience-language = کاربران { $language } ({ $count })
bc-empty-audience = کسی در این گروه نیست. گروه دیگری انتخاب کنید.
bc-confirm = پیام بالا برای این گروه فرستاده شود: { $audience }؟
bc-btn-send = ✅ ارسال به { $count } نفر
bc-draft-cancelled = ارسال همگانی لغو شد. چیزی فرستاده نشد.
bc-starting = 📣 ارسال همگانی شروع می‌شود…
bc-progress = 📣 ارسال همگانی در جریان است
    ✅ فرستاده: { $sent } · ⚠️ ناموفق: { $failed } · 🚫 مسدود: { $blocked }
    ⏳ مانده: { $remaining } از { $total } · حدود { $eta } دیگر
bc-done = 📣 ارسال همگانی تمام شد
    ✅ فرستاده: { $sent } · ⚠️ ناموفق: { $failed } · 🚫 مسدود: { $blocked } · از { $total }
bc-cancelled = 📣 ارسال همگانی متوقف شد
    ✅ فرستاده: { $sent } · ⚠️ ناموفق: { $failed } · 🚫 مسدود: { $blocked } · فرستاده‌نشده: { $remaining } از { $total }
bc-unconfirmed = ❔ نامعلوم: { $unconfirmed } (تلگرام پاسخی نداد یا ارسال در میانه متوقف شد؛ شاید رسیده باشند، شاید نه)
bc-btn-stop = ⏹ توقف ارسال همگانی
bc-stopping = { $count } ارسال همگانی در حال توقف است…
bc-stop-none = هیچ ارسال همگانی در جریان نیست.
