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

# /help's first paragraph; the commands (from the chat's menu), limits, prices, inline mode and the Gallery follow (bot/features/help.ts)
help =
    I make AI media for you: pictures from a description, edits of your photos, short videos, and dubbing of audio and video into another language.
    Each request's price in credits is shown before you confirm it.

# $available: credits free to spend; $held: credits reserved for requests still running
balance =
    💳 Your credits
    Available: { $available }
    Reserved for requests in progress: { $held }

language-choose = Choose your language:
language-set = Done: I will speak English from now on.

cancel-nothing = There is nothing to cancel.

fallback-unknown = I did not understand that. Send /help to see what I can do.
people-only = Please write as yourself: I serve people, not anonymous admins, channels or bots. Send your message from your own account.

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
btn-report = ⚠️ Report
btn-edit-result = ✏️ Edit this

## Generations: engine and one-line forms

# $price: the credits that were held and are now returned
gen-failed-unavailable =
    Sorry, the studio is not reachable right now, so this request could not be started.
    The { $price } credits reserved for it are back on your balance.
gen-done-late = Done after all! ✨ This one is free.
# $price: the credits that were charged and are now refunded
gen-undeliverable =
    Sorry, the result could not be sent to you here.
    The { $price } credits it cost are back on your balance.
gen-too-big-link = The file is too large for Telegram. Download it here (the link works for { $days } days):
reason-invalid-request = the studio cannot make this with these settings

## Guided conversations, /history and /cancel

cmd-image = Create an image from a description
cmd-edit = Edit your photos
cmd-video = Create a short video
cmd-dub = Dub audio or video into another language
cmd-history = Your recent requests

cv-ask-prompt-image =
    🖼 Describe the image you want, in Persian or English.
    For example: a red lighthouse at dusk, watercolor
cv-ask-prompt-video =
    🎬 Describe the video: the scene, the camera movement, the mood.
    For example: waves rolling onto a beach at sunset, slow drone shot
cv-btn-example = ✨ Try the example
cv-example-image = a red lighthouse at dusk, watercolor
cv-example-video = waves rolling onto a beach at sunset, slow drone shot
cv-ask-prompt-edit =
    ✏️ What should change? Say what stays and what changes.
    For example: keep the face, make the background a snowy forest
# $max: how many pictures an edit takes
cv-ask-photos =
    ✏️ Send 1 to { $max } photos to edit: single photos, an album, image files or https links to images.
    Then write what to change.
# $count: pictures received; $max: the most an edit takes
cv-photos-got =
    📎 { $count } of { $max } pictures received.
    { $count ->
        [3] Now write what to change, or press Continue.
       *[other] Send more, or write what to change.
    }
cv-photos-first = Please send a photo first (or an https link to an image); then write what to change.
# $minutes: the longest file the studio dubs
cv-ask-media =
    🎙 Send the audio or video to dub: an audio file, a video, a voice message, a file, or an https link to it.
    Up to { $minutes } minutes (longer than 5, it is dubbed in parts and joined). Files over { $upload } MB: send a link (up to { $limit } MB).

cv-prompt-empty = The description is empty. Please write what you want.
cv-prompt-no-words = A description needs words or emoji: punctuation alone says nothing I can make. Please write what you want, for example “a red lighthouse at dusk”.
# $length: characters sent; $max: the most accepted
cv-prompt-too-long = This description has { $length } characters; at most { $max } fit. Please shorten it.
cv-prompt-not-text = Please write the description as a text message.
cv-prompt-sticker = Stickers cannot be descriptions 🙂 Please write what you want as text.
cv-photo-sticker = That is a sticker. Please send a photo (or an image file).
cv-photo-not-image = That is not a picture. Please send a photo, an image file or an https link to an image.
# $max: the most pictures an edit takes
cv-photo-too-many = An edit takes at most { $max } pictures; I kept the first { $max }.
# $size: the file's size in MB
cv-file-too-big-telegram = This file is { $size } MB; Telegram lets bots download at most 20 MB. Send a smaller file, or an https link to it (up to 100 MB).
# $size: the file's size in MB
cv-file-too-big-service = This file is { $size } MB; the studio takes files of at most { $limit } MB. Please send a smaller file.
# $minutes, $seconds: the file's length
cv-media-too-long = This file is { $minutes } min { $seconds } s long; the studio dubs files of up to { $limit } minutes. Please send a shorter one.
cv-media-not-media = Please send an audio or video (MP3, WAV, M4A, OGG, WEBM, MP4, MOV), a voice message, or an https link to one.
cv-link-not-https = Only https links work (http is not accepted). Please send an https link.
cv-use-buttons = Please use the buttons above, or send /cancel to stop.
cv-expired-button = This menu is no longer active.
cv-cancelled = Cancelled. Nothing was charged.
cv-no-price = This combination has no price yet. Please choose other options.
# $problem: what is wrong
cv-invalid = This request cannot be made: { $problem }
# $position: the request's place in the queue
cv-queue-position = Place in the queue: { $position }. It may take a little longer than usual.

cv-title-image = 🖼 New image
cv-title-edit = ✏️ Photo edit
cv-title-video = 🎬 New video
cv-title-dub = 🎙 Dubbing
# the options' names: the summary's lines and the Mini App's fields
cv-label-prompt = Description
cv-label-model = Model
cv-label-aspect = Aspect ratio
cv-label-resolution = Resolution
cv-label-count = Number of images
cv-label-duration = Duration
cv-label-audio = Sound
cv-label-web = Web search
cv-label-target = Dub into
cv-label-source = Spoken language
cv-line-prompt = { cv-label-prompt }: { $value }
cv-line-photos = Pictures: { $value }
cv-line-model = { cv-label-model }: { $value }
cv-line-aspect = { cv-label-aspect }: { $value }
cv-line-resolution = { cv-label-resolution }: { $value }
cv-line-count = { cv-label-count }: { $value }
cv-line-duration = { cv-label-duration }: { $value } s
cv-line-audio = { cv-label-audio }: { $value }
cv-line-web = { cv-label-web }: { $value }
cv-line-file = File: { $value }
# $minutes, $seconds: the file's length
cv-line-length = Length: { $minutes }:{ $seconds }
# $minutes: the most a link is priced for
cv-line-length-unknown = Length: unknown (a link is priced for { $minutes } minutes; you pay only for its real length)
cv-line-target = { cv-label-target }: { $value }
cv-line-source = { cv-label-source }: { $value }
# $price: the exact price; $available: the balance
cv-line-price = 💳 Price: { $price } credits (balance: { $available })
cv-line-plan-discount = 📅 { $discount }% off with your monthly plan
cv-line-no-price = 💳 No price for these options (balance: { $available })
cv-on = on
cv-off = off
cv-aspect-auto = auto
cv-lang-auto = Auto-detect
# $value: seconds
cv-seconds = { $value } s
# $label: the choice; $price: credits it would cost
cv-choice-price = { $label } · { $price } cr

cv-btn-model = 🧠 { $value }
cv-btn-aspect = 📐 { $value }
cv-btn-resolution = 🖥 { $value }
cv-btn-count = { $value ->
    [one] 🔢 1 image
   *[other] 🔢 { $value } images
}
cv-btn-duration = ⏱ { $value } s
cv-btn-audio = 🔊 Sound: { $value }
cv-btn-web = 🌐 Web search: { $value }
cv-btn-target = 🗣 Into: { $value }
cv-btn-source = 👂 From: { $value }
# $price: credits
cv-btn-confirm = ✅ Confirm · { $price } credits
cv-btn-confirm-no-price = ✅ Confirm
cv-btn-back = ⬅️ Back
cv-btn-cancel = ✖️ Cancel
cv-btn-continue = ➡️ Continue
cv-btn-prev = ◀️
cv-btn-next = ▶️
# a picker's title when its choices take several pages
cv-pick-page = { $title } (page { $page } of { $pages })

cv-pick-model-image = Choose a model (price for your current options):
cv-pick-model-video = Choose a model (price for your current options):
cv-pick-aspect = Choose the aspect ratio:
cv-pick-resolution = Choose the resolution:
cv-pick-count = How many images?
cv-pick-duration = How long, in seconds?
cv-pick-target = Dub into which language?
cv-pick-source = Which language is spoken in the file?

dub-lang-fa = Persian
dub-lang-en = English
dub-lang-ar = Arabic
dub-lang-tr = Turkish
dub-lang-de = German
dub-lang-fr = French
dub-lang-es = Spanish
dub-lang-it = Italian
dub-lang-pt = Portuguese
dub-lang-ru = Russian
dub-lang-ja = Japanese
dub-lang-ko = Korean
dub-lang-zh = Chinese
dub-lang-hi = Hindi
dub-lang-nl = Dutch
dub-lang-pl = Polish
dub-lang-sv = Swedish
dub-lang-id = Indonesian
dub-lang-uk = Ukrainian
dub-lang-ro = Romanian
dub-lang-el = Greek
dub-lang-cs = Czech
dub-lang-da = Danish
dub-lang-fi = Finnish
dub-lang-bg = Bulgarian
dub-lang-hr = Croatian
dub-lang-sk = Slovak
dub-lang-ms = Malay
dub-lang-fil = Filipino
dub-lang-ta = Tamil

cancel-conversation = Cancelled. Nothing was charged.
# $price: credits returned
cancel-generation = Your queued request was cancelled; its { $price } credits are back on your balance.
cancel-status = ✖️ Cancelled. The credits are back on your balance.
cancel-too-late = Your request is already being made and can no longer be cancelled. You pay only if it succeeds.

history-empty = You have no requests yet. Try /image, /edit, /video or /dub.
history-title = 🗂 Your recent requests:
# $index: number in the list; $operation: translated op-*; $state: translated state; $cost: translated cost; $what: the request; $date, $time: when (UTC)
history-line =
    { $index }. { $operation } · { $state } · { $cost }
    { $what } ({ $date } { $time })
history-state-queued = ⏳ in the queue
history-state-submitting = ⏳ being sent
history-state-pending = ⚙️ in progress
history-state-completed = 📦 being delivered
history-state-delivering = 📦 being delivered
history-state-delivered = ✅ delivered
history-state-failed = ❌ failed
history-state-rejected = ❌ not accepted
history-state-expired = ⌛ took too long
history-state-cancelled = ✖️ cancelled
# $cost: credits
history-cost-charged = { $cost } credits
history-cost-held = { $cost } credits reserved
history-cost-none = no charge
# $index: number in the list
history-btn-show = 📤 { $index }
history-btn-retry = 🔁 { $index } try again
history-gone = This result is no longer available.

## Guided conversations: confirming
# $price: the price now, in credits
cv-price-changed = ⚠️ The price has changed since this menu was shown: it is now { $price } credits. Press Confirm to accept it.

## Alerts to the admins (each kind at most once per window)
# $problem: what the service answered
alert-service-refused = ⚠️ The media service refused us: { $problem }
    Submitting is paused and retried automatically.
# $count: violations found by the periodic ledger audit
alert-audit = ⚠️ The ledger audit found { $count } violation(s). Run `npm run audit` for the details.
# $generation: the generation id; $why: why Telegram could not take the result
alert-undeliverable = ⚠️ A result could not be delivered and was refunded: { $generation } ({ $why }).
# $task: the service's task id; $credits: what it cost on the service
alert-orphan = ⚠️ The service ran a task no request can take: { $task } ({ $credits } service credits).
# $queue: the queue; $waiting: jobs waiting in it; $limit: the limit
alert-backlog = ⚠️ The { $queue } queue has { $waiting } jobs waiting (limit { $limit }).
