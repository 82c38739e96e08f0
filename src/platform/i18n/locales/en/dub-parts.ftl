# Dubbing of files longer than the studio's 5 minutes: the bot cuts them into parts at pauses,
# dubs the parts and joins them into one file.
# $part: the part being dubbed now (1-based); $total: how many parts
gen-dubbing-part = Dubbing part { $part } of { $total }… I will send the whole file here once every part is dubbed.
# $minutes, $seconds: the file's length; $parts: how many parts it is dubbed in
cv-line-length-parts = Length: { $minutes } min { $seconds } s, dubbed in { $parts } parts
# $minutes, $seconds: the file's length; $max: the longest file dubbed, in minutes; $price: the credits returned
dub-source-too-long =
    The file is { $minutes } min { $seconds } s long; the studio dubs files of up to { $max } minutes, so this request was not started.
    The { $price } credits reserved for it are back on your balance.
# $part: the part that failed; $price: the credits returned
gen-dub-part-failed =
    Part { $part } of your file could not be dubbed (the studio failed it twice), so the request was stopped.
    Nothing was charged: the { $price } credits reserved for it are back on your balance.
# $size: the file's size in MB; $limit: the largest file taken as a link, in MB
cv-dub-upload-too-big = This file is { $size } MB; Telegram lets bots download at most 20 MB. Send an https link to it instead (files up to { $limit } MB).
# $price: the credits returned
dub-source-uncut =
    Files longer than 5 minutes cannot be dubbed here right now, so this request was not started.
    The { $price } credits reserved for it are back on your balance. A file of up to 5 minutes works.
# A dub's price where the charge may come out lower: it settles to the length the studio measures.
# $price: the most charged, the credits held; $available: the balance
cv-line-price-up-to = 💳 Price: up to { $price } credits, settled to the length dubbed (balance: { $available })
# $price: the most charged
cv-btn-confirm-up-to = ✅ Confirm · up to { $price } credits
