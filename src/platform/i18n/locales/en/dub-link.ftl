# Dubbing by link: the link's length is read before the price is shown.
dub-link-reading = 🔎 Reading the link to find how long it is…
# the link (or a redirect it gave) leads to a private or local address: never fetched, nothing priced or held
dub-link-private = 🔒 This link leads to a private or local address, which I never open. Please upload the file here, or send a public https link to it.
