cmd-buy = خرید اعتبار با ستاره‌های تلگرام
cmd-paysupport = راهنمایی درباره پرداخت
cmd-terms = شرایط خرید
buy-button = 💳 خرید اعتبار
# $available: the user's balance
buy-packs =
    یک بسته اعتبار انتخاب کنید؛ پرداخت با ستاره‌های تلگرام.
    موجودی شما: { $available } اعتبار.
buy-packs-test = این یک نصب آزمایشی است: پرداخت‌ها آزمایشی‌اند و هیچ ستاره واقعی کسر نمی‌شود.
# $credits, $bonus: credits of the pack; $stars: its price in Stars
buy-pack-button =
    { $bonus ->
        [0] { $credits } اعتبار · { $stars } ⭐
       *[other] { $credits } + { $bonus } اعتبار هدیه · { $stars } ⭐
    }
# $credits: credits granted (bonus included); at most 32 characters
buy-invoice-title = { $credits } اعتبار
buy-invoice-title-test = آزمایشی TEST · { $credits } اعتبار
# $credits: credits granted (bonus included)
buy-invoice-description = { $credits } اعتبار برای تصویر، ویرایش، ویدیو و دوبله در این ربات. اعتبار قابل انتقال نیست؛ { "/terms" } را ببینید.
buy-invoice-description-test = پرداخت آزمایشی (TEST)، هیچ ستاره واقعی کسر نمی‌شود. { $credits } اعتبار برای تصویر، ویرایش، ویدیو و دوبله در این ربات.
# $credits: credits granted (bonus included)
buy-price-label = { $credits } اعتبار
buy-pack-gone = این بسته دیگر فروخته نمی‌شود. لطفاً با { "/buy" } دوباره انتخاب کنید.
buy-pack-changed = این بسته پس از ارسال صورت‌حساب تغییر کرده است. لطفاً با { "/buy" } دوباره انتخاب کنید؛ چیزی کسر نشد.
buy-invoice-invalid = این صورت‌حساب معتبر نیست. لطفاً با { "/buy" } یک بسته انتخاب کنید؛ چیزی کسر نشد.
# $credits: credits added; $available: the new balance
buy-paid = ⭐ { $credits } اعتبار اضافه شد. موجودی شما: { $available } اعتبار.
buy-paid-test = ⭐ { $credits } اعتبار اضافه شد. موجودی شما: { $available } اعتبار. این یک پرداخت آزمایشی بود: هیچ ستاره واقعی کسر نشد.
# $charge: Telegram's charge id
buy-paid-unreadable =
    پرداخت شما رسید، اما نتوانستم آن را با یک بسته تطبیق دهم.
    لطفاً این شناسه پرداخت را با { "/paysupport" } بفرستید: { $charge }
paysupport-text =
    راهنمایی درباره پرداخت

    اگر خریدی درست انجام نشد (اعتبار نرسید، دو بار پرداخت شد، بسته‌ای اشتباهی خریدید)، همین‌جا برای ما بنویسید و این‌ها را بفرستید:
    - تاریخ پرداخت و بسته،
    - شناسه پرداخت تلگرام از رسید همین گفتگو (روی پیام پرداخت بزنید).

    خریدها قابل بازپرداخت‌اند: ستاره‌ها به حساب تلگرام شما برمی‌گردند و اعتبار آن خرید پس گرفته می‌شود (اعتباری که خرج شده پس گرفته نمی‌شود).
terms-text =
    شرایط خرید

    - اعتبار با ستاره‌های تلگرام خریده می‌شود و فقط برای رسانه‌های این ربات خرج می‌شود: تصویر، ویرایش، ویدیو و دوبله.
    - اعتبار قابل انتقال نیست و به پول یا ستاره تبدیل نمی‌شود.
    - درخواستی که ناموفق یا لغو شود هزینه‌ای ندارد: اعتبارش برمی‌گردد.
    - بازپرداخت: به { "/paysupport" } بنویسید. خرید بازپرداخت‌شده اعتبارش را پس می‌گیرد.
    - نتیجه‌ها مدت محدودی نگه داشته می‌شوند؛ آنچه را می‌خواهید ذخیره کنید.
