# Group settings (/groupsettings, for a group's admins) and what members are told when they meet them
cmd-groupsettings = Group settings: operations and who may use the bot

group-settings-only-in-groups = /groupsettings sets me up for a group: send it in the group, as one of its admins.
# $group: the group's title
group-settings-title = ⚙️ Settings of { $group }
# $operation: one of op-*, already translated
group-settings-line-on = ✅ { $operation }: on
group-settings-line-off = 🚫 { $operation }: off
# $access: group-access-*, already translated
group-settings-access = 👥 Who may use me here: { $access }
group-access-everyone = everyone
group-access-admins = admins only
group-settings-help = Tap an operation to switch it on or off for this group; choose below who may use me here. Inline mode (@bot in a message) is not covered: Telegram does not tell a bot which chat an inline result goes to.
group-settings-button-on = ✅ { $operation }
group-settings-button-off = 🚫 { $operation }
group-settings-button-everyone = 👥 Everyone
group-settings-button-admins = 🛡 Admins only
group-settings-admins-only = Only this group's admins can change its settings.
group-settings-saved = Saved.

group-operation-off = { $operation } is switched off in this group by its admins. Nothing was charged.
group-admins-only = In this group, only its admins can use me. Nothing was charged.
group-rate-limited = This group is sending me too many requests. Please wait a minute and try again.
