# /refund (admins), refunds made elsewhere, and payments the reconciler found
cmd-refund = بازپرداخت یک پرداخت ستاره‌ای با شناسهٔ تراکنش آن
refund-usage = روش استفاده: { "/refund" } <telegram_payment_charge_id> (شناسهٔ تراکنش در رسید پرداخت و در { "/user" } آمده است).
refund-unknown-charge = هیچ پرداختی با شناسهٔ { $charge } این‌جا ثبت نشده است. چیزی تغییر نکرد.
refund-already = پرداخت { $charge } پیش‌تر بازپرداخت شده است ({ $reversed } اعتبار آن زمان کسر شد). دو بار نمی‌توان آن را بازپرداخت کرد؛ چیزی تغییر نکرد.
refund-refused = تلگرام بازپرداخت { $charge } را نپذیرفت: { $reason }. چیزی تغییر نکرد.
refund-done = ✅ { $stars } ستارهٔ پرداخت { $charge } به کاربر { $user } بازگردانده شد: { $reversed } اعتبار کسر شد.
refund-done-partly = ✅ { $stars } ستارهٔ پرداخت { $charge } به کاربر { $user } بازگردانده شد: { $reversed } اعتبار کسر شد؛ { $missing } اعتبار را نمی‌شد کسر کرد، کاربر پیش‌تر آن را خرج کرده بود.
refund-user-notice = ↩️ پرداخت { $stars } ستاره‌ای شما بازپرداخت شد: { $reversed } اعتبار کسر شد.
refund-user-notice-partly = ↩️ پرداخت { $stars } ستاره‌ای شما بازپرداخت شد: { $reversed } اعتبار کسر شد ({ $missing } اعتبار پیش‌تر خرج شده بود و کسر نشد).
reconcile-credited = ⭐ پرداخت { $stars } ستاره‌ای شما ثبت شد: { $credits }+ اعتبار.
alert-payment-unreadable = ⚠️ یک پرداخت ستاره‌ای با هیچ صورت‌حسابی از ما جور نیست و اعتباری بابت آن داده نشد: تراکنش { $charge }، کاربر { $user }، { $stars } ستاره. بررسی کنید و سپس با { "/refund" } بازپرداخت یا با { "/grant" } دستی اعتبار دهید.
