# Buttons under a delivered result
btn-upscale = ⬆️ 4K
btn-upscale-one = ⬆️ 4K #{ $number }
ra-actions = ⬆️ Actions for the pictures above
ra-not-yours = This is not your request.
