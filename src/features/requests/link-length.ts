import type { Conv, Screen } from "../../bot/conversations/screen";
import { type DubInputRules, type MediaInput, tooLong } from "../../domain/generations/inputs";
import { type LinkDurationProbe, linkDurationProbe } from "../../platform/links/link-duration";

const defaultProbe = linkDurationProbe();

/**
 * A dubbing link gets its real length before it is priced: read once, through
 * `external` (a replay reads the recorded answer and does not fetch again),
 * while the user sees that the link is being read. A length that cannot be
 * read leaves the link as it was (priced at the maximum). A link to a private
 * address (the guard the worker's download uses refused it) or one over the
 * maximum is explained and `undefined` comes back (the caller asks for another).
 */
export async function withLinkLength(
  conversation: Conv,
  screen: Screen,
  media: MediaInput,
  rules: DubInputRules,
  probe: LinkDurationProbe = defaultProbe,
): Promise<MediaInput | undefined> {
  if (media.ref.kind !== "url" || media.durationSeconds !== undefined) return media;
  const url = media.ref.url;
  await screen.show(screen.t("dub-link-reading"), undefined);
  await screen.chatAction("typing");
  const measured = await conversation.external((outer) => probe(url, outer.logger));
  if ("unknown" in measured) {
    // the worker would never download it either: refused before any price or hold
    if (measured.unknown === "private-address") return refuse(screen, screen.t("dub-link-private"));
    return media;
  }
  if (measured.seconds > rules.maxSeconds) {
    const { key, ...vars } = tooLong(measured.seconds, rules);
    return refuse(screen, screen.t(key, vars));
  }
  return { ...media, durationSeconds: measured.seconds };
}

/** In place of "reading the link…"; the question that follows is a new message below it. */
async function refuse(screen: Screen, text: string): Promise<undefined> {
  await screen.show(text, undefined);
  screen.detach();
  return undefined;
}
