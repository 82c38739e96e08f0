import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../../bot/conversations/screen";
import { type InputProblem, linkIn, type PhotoInput, photoIn } from "../../domain/generations/inputs";
import { promptProblem } from "../../domain/generations/prompt-rule";
import { shorten } from "../../platform/lib/shorten";
import { limits } from "../../platform/media-service/catalog";
import { panelData } from "../../platform/telegram/callback-data";
import { cancelled, type StepResult, value } from "./steps";
import { summaryPromptLength } from "./summary";

const maxPhotos = limits.editMaxImageUrls;

export interface CollectedPhotos {
  images: PhotoInput[];
  /** a caption, or the text that ended the step */
  prompt?: string;
}

function problemText(screen: Screen, problem: InputProblem): string {
  return screen.t(problem.key, { ...problem, max: maxPhotos } as Record<string, string | number>);
}

/**
 * Gathers 1–3 pictures: photos, an album (one update per photo, kept on one
 * counter message by media_group_id), images sent as files, or https links.
 * Text ends the step as the description; Continue ends it without one.
 */
export async function collectPhotos(
  screen: Screen,
  initial: CollectedPhotos,
  /** the media_group_id of the album the first photo came in */
  album?: string,
): Promise<StepResult<CollectedPhotos>> {
  const { t } = screen;
  const images = [...initial.images];
  let prompt = initial.prompt;
  let lastGroup = album;
  const warnedGroups = new Set<string>();

  const render = async () => {
    const lines = [
      images.length === 0
        ? t("cv-ask-photos", { max: maxPhotos })
        : t("cv-photos-got", { count: images.length, max: maxPhotos }),
    ];
    if (prompt) lines.push(t("cv-line-prompt", { value: shorten(prompt, summaryPromptLength) }));
    const keyboard = new InlineKeyboard();
    if (images.length > 0) keyboard.text(t("cv-btn-continue"), panelData.done());
    await screen.show(lines.join("\n\n"), navRow(keyboard, t, { back: false }));
  };

  await render();
  for (;;) {
    const event = await screen.next();
    if (event.type === "button") {
      if (event.action.kind === "cancel") return cancelled;
      if (event.action.kind === "done" && images.length > 0) return value({ images, prompt });
      continue;
    }
    const message = event.ctx.message!;
    const text = message.text;
    if (text !== undefined) {
      const link = linkIn(text);
      if (link && !link.ok) {
        await screen.notice(t("cv-link-not-https"));
        continue;
      }
      if (link?.ok) {
        if (images.length >= maxPhotos) {
          await screen.notice(t("cv-photo-too-many", { max: maxPhotos }));
          continue;
        }
        images.push({ ref: { kind: "url", url: link.url } });
        await render();
        continue;
      }
      if (images.length === 0) {
        await screen.notice(t("cv-photos-first"));
        continue;
      }
      const problem = promptProblem(text, t);
      if (problem) {
        await screen.notice(problem);
        continue;
      }
      return value({ images, prompt: text.trim() });
    }

    const group = message.media_group_id;
    const photo = photoIn(message);
    if (!photo) {
      await screen.notice(t("cv-photo-not-image"));
      continue;
    }
    if (!photo.ok) {
      await screen.notice(problemText(screen, photo.problem));
      continue;
    }
    if (images.length >= maxPhotos) {
      // one notice per album, not one per extra photo in it
      if (!group || !warnedGroups.has(group)) await screen.notice(t("cv-photo-too-many", { max: maxPhotos }));
      if (group) warnedGroups.add(group);
      continue;
    }
    images.push(photo.value);
    const caption = message.caption?.trim();
    if (caption && !promptProblem(caption, t)) prompt = caption;
    if (group && group === lastGroup) screen.keepPlace();
    lastGroup = group;
    await render();
  }
}
