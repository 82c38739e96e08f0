# Dubbing: before sending, the bot downloads the file (a link or an upload) once and measures it;
# the service is given that copy (or its parts), never the link.
# $minutes, $seconds: the length measured now; $price: the credits held and now returned
dub-pin-longer =
    The file is longer now ({ $minutes } min { $seconds } s) than when it was priced, so this request was not started.
    The { $price } credits reserved for it are back on your balance. Please send the link again to price it anew.
# $limit: the studio's size limit in MB; $price: the credits held and now returned
dub-pin-too-large =
    The file is larger than the { $limit } MB the studio accepts, so this request was not started.
    The { $price } credits reserved for it are back on your balance.
# $price: the credits held and now returned
dub-pin-unreachable =
    The file could not be downloaded (its server did not answer in time, refused, or is not public; or Telegram no longer has it), so this request was not started.
    The { $price } credits reserved for it are back on your balance. Please send it again.
# $price: the credits held and now returned
dub-pin-unreadable =
    The file is not an audio or video the studio can read, so this request was not started.
    The { $price } credits reserved for it are back on your balance.
