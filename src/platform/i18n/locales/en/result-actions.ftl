# Buttons under a delivered result
btn-upscale = ⬆️ 4K
btn-upscale-one = ⬆️ 4K #{ $number }
# an album cannot carry a keyboard: its buttons go on this message, replying to it
ra-actions = ⬆️ Actions for the pictures above
ra-not-yours = This is not your request.
# A 4K version: the panel's line in place of a description (the prompt sent is ours), and the result's caption
cv-line-upscale = Upscale: the same picture, unchanged, in 4K
upscale-description = ⬆️ The same picture, in 4K
