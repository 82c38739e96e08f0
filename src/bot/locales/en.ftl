## Command menu (setMyCommands)

cmd-start = Start and get your welcome credits
cmd-help = What I can do
cmd-balance = Your credits
cmd-language = Change the language
cmd-cancel = Cancel what is in progress

## Always-available handlers

# $name: the user's first name; $amount: credits just granted; $available: the balance after it
start-welcome-new =
    Hi { $name }! 👋
    Welcome to Media Studio: I make images, edit photos, create videos and dub audio and video with AI.

    🎁 { $amount } free credits are yours to try it out.
    Balance: { $available } credits.

    Send /help to see what I can do.

# $name: the user's first name; $available: the balance
start-welcome-back =
    Welcome back, { $name }! 👋
    Balance: { $available } credits.

    Send /help to see what I can do.

help =
    I make AI media for you:
    • images from a description
    • edits of your photos
    • short videos
    • dubbing of audio and video into another language

    Each job has a price in credits, shown before you confirm it.

    /balance — your credits
    /language — change the language
    /cancel — cancel what is in progress
    /help — this message

# $available: credits free to spend; $held: credits reserved for requests still running
balance =
    💳 Your credits
    Available: { $available }
    Reserved for requests in progress: { $held }

language-choose = Choose your language:
language-set = Done: I will speak English from now on.

cancel-nothing = There is nothing to cancel.

fallback-unknown = I did not understand that. Send /help to see what I can do.

rate-limited = You are sending messages too fast. Please wait a few seconds and try again.

error-generic = Sorry, something went wrong on our side. Please try again in a moment.

## Operations

op-image = Image generation
op-edit = Image editing
op-video = Video generation
op-dub = Dubbing

## Generations

gen-queued = Your request is in the queue. I will send the result here as soon as it is ready.
gen-submitting = Sending your request to the studio…
gen-generating = Working on it… I will send the result here when it is ready.
gen-done = Done! ✨
# $price: the credits that were held and are now returned
gen-failed =
    Sorry, this request failed.
    The { $price } credits reserved for it are back on your balance.
# $reason: why the service refused, already translated
gen-rejected =
    This request was not accepted: { $reason }
    No credits were taken.
# $price: the credits that were held and are now returned
gen-expired =
    This request took too long and was stopped.
    The { $price } credits reserved for it are back on your balance.
# $price: the cost; $available: the balance; $missing: how many more are needed
gen-insufficient =
    Not enough credits: this costs { $price } and you have { $available }.
    You need { $missing } more.
# $operation: one of op-*, already translated; $prompt: the user's text; $price: credits
gen-confirm-summary =
    { $operation }
    Prompt: { $prompt }
    Price: { $price } credits

    Confirm?
# $prompt: the user's text; $cost: credits charged
gen-caption =
    { $prompt }
    — { $cost } credits
gen-late-free = Your earlier request finished after all. Here is the result, free of charge: your credits were already returned.

## Buttons

btn-confirm = ✅ Confirm
btn-cancel = ✖️ Cancel
btn-regenerate = 🔁 Again
btn-edit-result = ✏️ Edit this

## Generations: engine and one-line forms

# $price: the credits that were held and are now returned
gen-failed-unavailable =
    Sorry, the studio is not reachable right now, so this request could not be started.
    The { $price } credits reserved for it are back on your balance.
gen-done-late = Done after all! ✨ This one is free.
gen-too-big-link = The file is too large for Telegram. Download it here (the link works for 7 days):
reason-invalid-request = the studio cannot make this with these settings
quick-usage-image = Send /image followed by a description, for example: /image a red lighthouse at dusk
quick-usage-video = Send /video followed by a description of the scene, for example: /video waves rolling onto a beach at sunset
quick-usage-edit = Send a photo with the caption /edit and what to change, or reply to a photo with /edit and what to change.
# $languages: the language codes, space-separated
quick-usage-dub =
    Reply to an audio or video file with /dub and the target language, or send /dub <language> <https link>.
    Languages: { $languages }
# $problem: what is wrong with the request
quick-invalid = This request cannot be made: { $problem }
quick-no-price = This option has no price yet. Please choose another one.
quick-expired = This offer has expired. Please send the command again.
quick-cancelled = Cancelled. Nothing was charged.
# $max: megabytes
input-too-big-telegram = This file is larger than { $max } MB, the most Telegram lets bots download. Send a smaller file or an https link to it.
# $max: minutes
input-too-long = This file is longer than { $max } minutes, the most the studio can dub. Please send a shorter one.
input-link-not-https = Please send an https link (http links are not accepted).
edit-how = Reply to the picture with /edit and what to change, for example: /edit make the sky purple
