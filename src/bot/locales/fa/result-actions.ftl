# Buttons of a delivered result, on its status message
btn-upscale = ⬆️ 4K
btn-upscale-one = ⬆️ 4K #{ $number }
ra-not-yours = این درخواست شما نیست.
# نسخهٔ 4K: سطر پنل به جای توضیح (متن فرستاده‌شده از ماست)، و زیرنویس نتیجه
cv-line-upscale = افزایش کیفیت: همان تصویر، بدون تغییر، با کیفیت 4K
upscale-description = ⬆️ همان تصویر، با کیفیت 4K
