# Dubbing by link: before sending, the bot downloads the file once and measures it;
# the service is given that copy, never the link.
# $minutes, $seconds: the length measured now; $price: the credits held and now returned
dub-pin-longer =
    The file at the link is longer now ({ $minutes } min { $seconds } s) than when it was priced, so this request was not started.
    The { $price } credits reserved for it are back on your balance. Please send the link again to price it anew.
# $limit: the studio's size limit in MB; $price: the credits held and now returned
dub-pin-too-large =
    The file at the link is larger than the { $limit } MB the studio accepts, so this request was not started.
    The { $price } credits reserved for it are back on your balance.
# $price: the credits held and now returned
dub-pin-unreachable =
    The file at the link could not be downloaded (the server did not answer in time, refused, or is not public), so this request was not started.
    The { $price } credits reserved for it are back on your balance. Please check the link and send it again.
# $price: the credits held and now returned
dub-pin-unreadable =
    The file at the link is not an audio or video the studio can read, so this request was not started.
    The { $price } credits reserved for it are back on your balance.
