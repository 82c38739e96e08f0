# Group settings (/groupsettings, for a group's admins) and what members are told when they meet them
cmd-groupsettings = تنظیمات گروه: قابلیت‌ها و اینکه چه کسی از ربات استفاده کند

group-settings-only-in-groups = { "/groupsettings" } برای تنظیم من در یک گروه است: آن را در گروه و به‌عنوان یکی از مدیرانش بفرستید.
# $group: the group's title
group-settings-title = ⚙️ تنظیمات { $group }
# $operation: one of op-*, already translated
group-settings-line-on = ✅ { $operation }: روشن
group-settings-line-off = 🚫 { $operation }: خاموش
# $access: group-access-*, already translated
group-settings-access = 👥 چه کسی اینجا می‌تواند از من استفاده کند: { $access }
group-access-everyone = همه
group-access-admins = فقط مدیران
group-settings-help = برای روشن یا خاموش کردن هر قابلیت در این گروه روی آن بزنید؛ پایین‌تر انتخاب کنید چه کسی اینجا از من استفاده کند. حالت درون‌خطی (نوشتن ‎@bot در پیام) شامل این تنظیمات نمی‌شود: تلگرام به ربات نمی‌گوید نتیجهٔ درون‌خطی به کدام گفتگو می‌رود.
group-settings-button-on = ✅ { $operation }
group-settings-button-off = 🚫 { $operation }
group-settings-button-everyone = 👥 همه
group-settings-button-admins = 🛡 فقط مدیران
group-settings-admins-only = فقط مدیران این گروه می‌توانند تنظیماتش را تغییر دهند.
group-settings-saved = ذخیره شد.

group-operation-off = { $operation } در این گروه توسط مدیرانش خاموش شده است. هزینه‌ای کسر نشد.
group-admins-only = در این گروه فقط مدیرانش می‌توانند از من استفاده کنند. هزینه‌ای کسر نشد.
group-rate-limited = از این گروه درخواست‌های زیادی به من می‌رسد. لطفاً یک دقیقه صبر کنید و دوباره امتحان کنید.
