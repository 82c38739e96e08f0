## /privacy: the policy, and "Delete my data"

cmd-privacy = What the bot keeps about you, and deleting it
# $days: how many days copies of results are kept (MEDIA_RETENTION_DAYS)
privacy-policy-default =
    🔒 Privacy

    What I keep about you, and why:
    • Your Telegram id, name, username and language: to know you and answer in your language.
    • Your requests (descriptions, options, prices) and the files you send: to make what you ask for. They go to the media service that makes it, and nowhere else.
    • Copies of your results: { $days } days, so that you can get them again; after that only Telegram keeps them, in this chat.
    • Your balance, its movements and your payments: as long as the books must be kept. Telegram handles payments; I never see card details.
    • Your last choices (model, size…): so that the next request starts from them.

    Nothing is sold or shown to anyone else. Admins see a request only when it is reported in a group.
privacy-delete-hint = “Delete my data” below erases your requests, files, results and choices at once. Your balance stays yours.
privacy-delete-button = 🗑 Delete my data
privacy-delete-ask =
    Delete your data? This erases every request you made (descriptions and options), the files you sent, the copies of your results, your choices and any request still being made (its credits come back first). Your name is removed too.

    What stays, without any description or name: your balance and its movements, and your payments, which the books must keep. This cannot be undone.
privacy-delete-confirm = 🗑 Yes, delete everything
privacy-delete-keep = Keep my data
privacy-delete-kept = Nothing was deleted.
# $requests: requests erased; $files: stored files deleted; $cancelled: requests stopped (their credits returned)
privacy-deleted =
    ✅ Your data is deleted: { $requests } requests and { $files } stored files. { $cancelled ->
        [0] Nothing was running.
       *[other] { $cancelled } running requests were stopped and their credits returned.
    }

    Kept for the books, without descriptions or names: your balance, its movements and your payments. Results already sent stay in this chat until you delete them in Telegram. If you use the bot again, it starts a new record.
privacy-delete-failed = Your data could not be deleted just now; nothing was lost. Please try again in a minute.
