## How long a request usually takes, under its waiting status (generations/status.ts)

# $duration: a wait-seconds or wait-minutes text: the median of the bot's latest requests of this kind
wait-usual = معمولاً حدود { $duration } طول می‌کشد.
# $from: a wait-seconds or wait-minutes text: the service's own range, before the bot has history
wait-usual-range = معمولاً از { $from } تا چند دقیقه طول می‌کشد.
# $duration: a wait-minutes text: what is left of the estimate for this request's length (a dub's minutes, a video's seconds)
wait-left = حدود { $duration } دیگر مانده است.
wait-left-under-minute = کمتر از یک دقیقه مانده است.
# past the estimate for its length
wait-left-over = کمی بیشتر از معمول طول کشیده است.
# $duration: a wait-minutes text
wait-elapsed = تا الان { $duration } گذشته است.
wait-seconds = { $n } ثانیه
wait-minutes = { $n } دقیقه
