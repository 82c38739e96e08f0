import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../../bot/conversations/screen";
import { type DubInputRules, linkIn, type MediaInput, mediaIn } from "../../domain/generations/inputs";
import { cancelled, type StepResult, value } from "./steps";

/**
 * Asks for what to dub: an uploaded audio, voice, video or file, or an https
 * link. Files the Bot API will not hand us (over 20 MB on the cloud one), over
 * the source limit or longer than the longest dubbed are explained, and the
 * step goes on.
 */
export async function collectMedia(screen: Screen, rules: DubInputRules): Promise<StepResult<MediaInput>> {
  const { t } = screen;
  const mb = (bytes: number) => Math.floor(bytes / 1_000_000);
  await screen.show(
    t("cv-ask-media", {
      minutes: rules.maxSeconds / 60,
      upload: mb(rules.uploadMaxBytes),
      limit: mb(rules.sourceMaxBytes),
    }),
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
      if (link?.ok)
        return value({ ref: { kind: "url", url: link.url }, label: link.url, messageId: message.message_id });
      await screen.notice(t(link ? "cv-link-not-https" : "cv-media-not-media"));
      continue;
    }
    const media = mediaIn(message, rules);
    if (!media) {
      await screen.notice(t("cv-media-not-media"));
      continue;
    }
    if (!media.ok) {
      const { key, ...vars } = media.problem;
      await screen.notice(t(key, vars));
      continue;
    }
    return value({ ...media.value, messageId: message.message_id });
  }
}
