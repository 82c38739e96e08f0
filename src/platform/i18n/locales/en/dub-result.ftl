## A dub's title (result caption, audio title, /history, the Mini App) when the source language was detected

# $target: the language it was dubbed into
dub-description-into = Dubbed into { $target }

# The result caption's first line: the file dubbed. $file: its name, or the link
dub-caption-file = 🎙 { $file }
