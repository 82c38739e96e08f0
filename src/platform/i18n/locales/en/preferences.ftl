# Remembered choices: the panel line and /settings
pref-saved-line = ⭐️ Your saved settings · change them below, or /settings to reset
cmd-settings = Your saved settings
settings-title = ⚙️ Your saved settings
settings-intro = Your last confirmed options are where your next request starts.
settings-empty = ⚙️ Nothing remembered yet. Confirm a request, and its options become your defaults here.
settings-image = 🖼 Image: { $value }
settings-edit = ✏️ Edit: { $value }
settings-video = 🎬 Video: { $value }
settings-dub = 🎙 Dubbing: { $value }
settings-count = { $count ->
    [one] 1 image
   *[other] { $count } images
}
settings-sound = sound { $value }
settings-languages = into { $target }, from { $source }
settings-btn-image = ♻️ Reset image
settings-btn-edit = ♻️ Reset edit
settings-btn-video = ♻️ Reset video
settings-btn-dub = ♻️ Reset dubbing
settings-btn-all = ♻️ Reset all
settings-reset-done = Reset: the defaults apply again.
settings-private-only = ⚙️ Your saved settings are in your private chat with me: send /settings there.
