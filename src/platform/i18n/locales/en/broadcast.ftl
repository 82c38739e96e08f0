# /broadcast (admins only)
bc-ask = 📣 Send me the message to broadcast: text (formatting is kept), a photo, a video, an album or a document.
bc-unsupported = That kind of message cannot be broadcast. Send text, a photo, a video, an album or a document.
bc-album = 🖼 Album: { $count } items. Press Preview when all of them are here.
bc-btn-preview = 👁 Preview
bc-preview-above = ⬆️ The preview above is exactly what recipients will see.
bc-pick-audience = 👥 Who should get it?
bc-audience-everyone = Everyone ({ $count })
bc-audience-active = Active in the last { $days } days ({ $count })
bc-audience-language = { $language } speakers ({ $count })
bc-empty-audience = Nobody is in that audience. Pick another one.
bc-confirm = Send the message above to: { $audience }?
bc-btn-send = ✅ Send to { $count }
bc-draft-cancelled = Broadcast cancelled. Nothing was sent.
bc-starting = 📣 Broadcast starting…
bc-progress = 📣 Broadcast in progress
    ✅ Sent: { $sent } · ⚠️ Failed: { $failed } · 🚫 Blocked: { $blocked }
    ⏳ Remaining: { $remaining } of { $total } · about { $eta } left
bc-done = 📣 Broadcast finished
    ✅ Sent: { $sent } · ⚠️ Failed: { $failed } · 🚫 Blocked: { $blocked } · of { $total }
bc-cancelled = 📣 Broadcast stopped
    ✅ Sent: { $sent } · ⚠️ Failed: { $failed } · 🚫 Blocked: { $blocked } · not sent: { $remaining } of { $total }
bc-unconfirmed = ❔ Unconfirmed: { $unconfirmed } (no answer from Telegram, or the sender stopped mid-send: they may or may not have arrived)
bc-btn-stop = ⏹ Stop the broadcast
bc-stopping = Stopping { $count } broadcast(s)…
bc-stop-none = No broadcast is running.
