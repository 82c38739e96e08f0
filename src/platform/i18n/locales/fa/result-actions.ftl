# Buttons under a delivered result
btn-upscale = ⬆️ 4K
btn-upscale-one = ⬆️ 4K #{ $number }
# آلبوم دکمه نمی‌گیرد: دکمه‌هایش روی این پیام می‌آیند، در پاسخ به آن
ra-actions = ⬆️ کارهای قابل انجام با تصاویر بالا
ra-not-yours = این درخواست شما نیست.
# نسخهٔ 4K: سطر پنل به جای توضیح (متن فرستاده‌شده از ماست)، و زیرنویس نتیجه
cv-line-upscale = افزایش کیفیت: همان تصویر، بدون تغییر، با کیفیت 4K
upscale-description = ⬆️ همان تصویر، با کیفیت 4K
