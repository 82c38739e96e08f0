## Monthly plans: /plans, the subscription invoice, renewals and cancelling

cmd-plans = اشتراک‌های ماهانه با ستاره‌های تلگرام
plans-title = 📅 اشتراک‌های ماهانه، پرداخت هر ماه با ستاره‌های تلگرام. هر وقت خواستید لغو کنید: اشتراک تا پایان ماهِ پرداخت‌شده فعال می‌ماند.
plans-none = در حال حاضر اشتراک ماهانه‌ای ارائه نمی‌شود. بسته‌های اعتبار در { "/buy" } هستند.
# $plan: the plan's name; $credits: credits each month; $discount: percent off every request (0: none); $stars: its price a month
plan-summary =
    { $discount ->
        [0] { $plan }: هر ماه { $credits } اعتبار · ماهانه { $stars } ⭐
       *[other] { $plan }: هر ماه { $credits } اعتبار و { $discount }٪ تخفیف روی هر درخواست · ماهانه { $stars } ⭐
    }
# $plan, $stars: as in plan-summary
plan-subscribe-button = اشتراک { $plan } · ماهانه { $stars } ⭐
# $plan: the plan's name; $date: the end of the month paid (UTC)
plan-active-renews = 📅 اشتراک { $plan }: در { $date } تمدید می‌شود.
plan-active-ends = 📅 اشتراک { $plan }: در { $date } پایان می‌یابد و تمدید نمی‌شود.
plan-active-hint = هر تمدید اعتبار اشتراک را اضافه می‌کند. لغو، تمدید بعدی را متوقف می‌کند؛ آنچه پرداخت کرده‌اید تا پایانش فعال می‌ماند.
plan-cancel-button = لغو اشتراک
plan-resume-button = تمدید دوباره اشتراک
# $plan, $date: as in plan-active-renews
plan-cancelled = اشتراک { $plan } شما تمدید نمی‌شود و تا { $date } فعال می‌ماند.
plan-resumed = اشتراک { $plan } شما دوباره در { $date } تمدید می‌شود.
plan-already = اشتراک شما همین حالا همین وضعیت را دارد. برای دیدنش { "/plans" } را بفرستید.
plan-none-active = اشتراک فعالی ندارید. برای انتخاب یکی { "/plans" } را بفرستید.
plan-change-failed = تلگرام همین حالا این تغییر را نپذیرفت. لطفاً چند لحظهٔ دیگر دوباره بزنید.
plan-gone = این اشتراک دیگر ارائه نمی‌شود. لطفاً با { "/plans" } دوباره انتخاب کنید؛ چیزی کسر نشد.
plan-changed = این اشتراک پس از باز شدن تغییر کرده است. لطفاً با { "/plans" } دوباره انتخاب کنید؛ چیزی کسر نشد.
# $credits: credits added; $available: the new balance; $plan: the plan; $date: when the month paid ends (UTC)
plan-paid = 📅 اشتراک { $plan }: { $credits } اعتبار اضافه شد، فعال تا { $date }. موجودی شما: { $available } اعتبار.
plan-paid-test = این یک پرداخت آزمایشی بود: هیچ ستاره واقعی کسر نشد.
# $plan: the plan's name; $credits: credits each month; at most 32 characters
plan-invoice-title = اشتراک ماهانه { $plan }
plan-invoice-title-test = TEST · اشتراک ماهانه { $plan }
# $credits: credits each month; $discount: percent off every request
plan-invoice-description =
    { $discount ->
        [0] هر ماه { $credits } اعتبار برای تصویر، ویرایش، ویدیو و دوبله در این ربات. تا لغو، ماهانه تمدید می‌شود؛ { "/terms" } را ببینید.
       *[other] هر ماه { $credits } اعتبار و { $discount }٪ تخفیف روی هر درخواست در این ربات. تا لغو، ماهانه تمدید می‌شود؛ { "/terms" } را ببینید.
    }
plan-invoice-description-test = اشتراک آزمایشی (TEST)، هیچ ستاره واقعی کسر نمی‌شود. هر ماه { $credits } اعتبار در این ربات.
plan-price-label = ماهانه { $credits } اعتبار
