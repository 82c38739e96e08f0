## /help after its first paragraph (bot/features/help.ts): the chat's menu, then each feature's part

help-commands = Commands (tap one):
help-group-admins = For the group's admins:
# prices: the lowest and highest of the price table; limits: the service's and this bot's
help-limits =
    Prices and limits:
    • Pictures: { $imageFrom }–{ $imageTo } credits each, up to { $imagesMax } per request; an edit takes up to { $editPhotos } photos
    • Videos: { $videoFrom }–{ $videoTo } credits per second, { $secondsFrom }–{ $secondsTo } seconds long
    • Dubbing: { $dubPerMinute } credits per started minute, files up to { $dubMinutes } minutes (uploads up to { $uploadMb } MB, links up to { $linkMb } MB)
    • Descriptions: up to { $promptMax } characters
# $bot: the bot's @username
help-inline =
    Inline mode: in any chat, type { $bot } and a description, then choose “Generate image”. You confirm the price there, and the picture replaces the message.
# $button: the menu button's label (btn-gallery)
help-gallery =
    { $button }: the button beside the message field opens the Gallery, a Mini App with your results, Create (every option with its price) and Credits.
