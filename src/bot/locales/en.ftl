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
