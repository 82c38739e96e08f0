import { limits } from "../../media/catalog";
import { type LinkDurationProbe, linkDurationProbe } from "../../media/link-duration";
import type { MediaInput } from "./inputs";
import type { Conv, Screen } from "./screen";

const defaultProbe = linkDurationProbe();

/**
 * A dubbing link gets its real length before it is priced: read once, through
 * `external` (a replay reads the recorded answer and does not fetch again),
 * while the user sees that the link is being read. A length that cannot be
 * read leaves the link as it was (priced at the maximum); one over the
 * maximum is explained and `undefined` comes back (the caller asks for another).
 */
export async function withLinkLength(
  conversation: Conv,
  screen: Screen,
  media: MediaInput,
  probe: LinkDurationProbe = defaultProbe,
): Promise<MediaInput | undefined> {
  if (media.ref.kind !== "url" || media.durationSeconds !== undefined) return media;
  const url = media.ref.url;
  await screen.show(screen.t("dub-link-reading"), undefined);
  await screen.chatAction("typing");
  const measured = await conversation.external((outer) => probe(url, outer.logger));
  if (!("seconds" in measured)) return media;
  const total = Math.round(measured.seconds);
  if (measured.seconds > limits.dubbingMaxSeconds) {
    // in place of "reading the link…"; the question that follows is a new message below it
    await screen.show(
      screen.t("cv-media-too-long", { minutes: Math.floor(total / 60), seconds: total % 60 }),
      undefined,
    );
    screen.detach();
    return undefined;
  }
  return { ...media, durationSeconds: measured.seconds };
}
