## How long a request usually takes, under its waiting status (generations/status.ts)

# $duration: a wait-seconds or wait-minutes text: the median of the bot's latest requests of this kind
wait-usual = Usually takes about { $duration }.
# $from: a wait-seconds or wait-minutes text: the service's own range, before the bot has history
wait-usual-range = Usually takes { $from } to several minutes.
# $duration: a wait-minutes text: what is left of the estimate for this request's length (a dub's minutes, a video's seconds)
wait-left = About { $duration } left.
wait-left-under-minute = Less than a minute left.
# past the estimate for its length
wait-left-over = Taking a little longer than usual.
# $duration: a wait-minutes text
wait-elapsed = It has been { $duration } so far.
wait-seconds = { $n ->
    [one] { $n } second
   *[other] { $n } seconds
}
wait-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}
