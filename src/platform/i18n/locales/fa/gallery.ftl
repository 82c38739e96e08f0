# the Mini App: the button under results and in /history, and the chat's menu button
btn-gallery = 🖼 گالری
