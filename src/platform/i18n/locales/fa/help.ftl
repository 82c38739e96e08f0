## /help after its first paragraph (bot/features/help.ts): the chat's menu, then each feature's part

help-commands = دستورها (روی هر کدام بزنید):
help-group-admins = برای مدیران گروه:
# prices: the lowest and highest of the price table; limits: the service's and this bot's
help-limits =
    قیمت‌ها و محدودیت‌ها:
    • تصویر: هر تصویر { $imageFrom } تا { $imageTo } اعتبار، تا { $imagesMax } تصویر در هر درخواست؛ ویرایش تا { $editPhotos } عکس می‌پذیرد
    • ویدیو: ثانیه‌ای { $videoFrom } تا { $videoTo } اعتبار، به طول { $secondsFrom } تا { $secondsTo } ثانیه
    • دوبله: هر دقیقهٔ شروع‌شده { $dubPerMinute } اعتبار، فایل تا { $dubMinutes } دقیقه (بارگذاری تا { $uploadMb } مگابایت، پیوند تا { $linkMb } مگابایت)
    • توضیح: تا { $promptMax } نویسه
# $bot: the bot's @username
help-inline =
    حالت درون‌خطی: در هر گفتگویی { $bot } و یک توضیح بنویسید و «ساخت تصویر» را انتخاب کنید. قیمت را همان‌جا تأیید می‌کنید و تصویر جای پیام را می‌گیرد.
# $button: the menu button's label (btn-gallery)
help-gallery =
    { $button }: دکمهٔ کنار کادر پیام، گالری را باز می‌کند؛ یک مینی‌اپ با نتایج شما، ساختن (هر گزینه با قیمتش) و اعتبار.
