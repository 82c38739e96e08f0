# Offers for what a private chat sends without a command (requests/offers-without-command.ts)
# $count: the photos sent (an album's, up to what an edit takes)
sent-photos-offer = { $count ->
    [one] 📷 What shall I do with this photo?
   *[other] 📷 What shall I do with these { $count } photos?
}
# $max: the most pictures an edit takes
sent-photos-extra = An edit takes at most { $max } pictures: I will use the first { $max }.
sent-btn-edit-one = ✏️ Edit it
sent-btn-edit-many = ✏️ Edit them
sent-btn-reference-one = 🖼 Make a new picture from it
sent-btn-reference-many = 🖼 Make a new picture from them
# $kind: audio or video
sent-media-offer = { $kind ->
    [video] 🎙 Shall I dub this video into another language? You choose the language next.
   *[other] 🎙 Shall I dub this audio into another language? You choose the language next.
}
sent-btn-dub = 🎙 Dub it
sent-text-offer = 🎨 Shall I make a picture or a video of this?
sent-btn-image = 🎨 Make a picture
sent-btn-video = 🎬 Make a video
# $price: the video's price with the remembered (or default) $model and length in $seconds
sent-video-price = 🎬 A video ({ $model }, { $seconds } s): { $price } credits
sent-video-no-price = 🎬 A video: price not available right now
# a pasted link that could not be opened (no answer, an error, too slow): nothing kept, nothing charged
sent-link-unreachable = 🔗 I could not open this link: the site did not answer or refused. Nothing was charged. Check the link and send it again, or send the file itself here.
sent-offer-expired = This offer is no longer active. Please send it again.
sent-unusable = I can edit photos and dub audio or video, but not this kind of file. Send /help to see what I can do.
# The edit panel when a sent photo guides a new picture
cv-title-reference = 🖼 New picture from a reference
cv-ask-prompt-reference =
    🖼 What picture should I make from it? Describe the new picture; yours guides its look.
    For example: the same cat as a knight in a castle, oil painting
