import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../bot/conversations/screen";
import { linkIn, type MediaInput, mediaIn } from "../generations/inputs";
import { limits } from "../media/catalog";
import { cancelled, type StepResult, value } from "./steps";

/**
 * Asks for what to dub: an uploaded audio, voice, video or file, or an https
 * link. Files Telegram will not let us download (over 20 MB), over the
 * service's 100 MB or longer than 5 minutes are explained, and the step goes on.
 */
export async function collectMedia(screen: Screen): Promise<StepResult<MediaInput>> {
  const { t } = screen;
  await screen.show(
    t("cv-ask-media", { minutes: limits.dubbingMaxSeconds / 60 }),
    navRow(new InlineKeyboard(), t, { back: false }),
  );
  for (;;) {
    const event = await screen.next();
    if (event.type === "button") {
      if (event.action.kind === "cancel") return cancelled;
      continue;
    }
    const message = event.ctx.message!;
    if (message.text !== undefined) {
      const link = linkIn(message.text);
      if (link?.ok) return value({ ref: { kind: "url", url: link.url }, label: link.url });
      await screen.notice(t(link ? "cv-link-not-https" : "cv-media-not-media"));
      continue;
    }
    const media = mediaIn(message);
    if (!media) {
      await screen.notice(t("cv-media-not-media"));
      continue;
    }
    if (!media.ok) {
      const { key, ...vars } = media.problem;
      await screen.notice(t(key, vars));
      continue;
    }
    return value(media.value);
  }
}
