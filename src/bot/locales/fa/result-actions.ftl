# Buttons under a delivered result
btn-upscale = ⬆️ 4K
btn-upscale-one = ⬆️ 4K #{ $number }
ra-actions = ⬆️ کارهای قابل انجام با تصاویر بالا
ra-not-yours = این درخواست شما نیست.
