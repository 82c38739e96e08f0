import { type Context, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import { openConversation } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import type { BroadcastAudience } from "../../platform/db/schema";
import type { Translate } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import { panelData } from "../../platform/telegram/callback-data";
import { audienceChoices, audienceCode, audienceFromCode } from "./audience";
import type { Broadcast, NewBroadcast } from "./store";

export interface BroadcastConversationDeps {
  countAudience(audience: BroadcastAudience): Promise<number>;
  /** creates the broadcast (once per request key) and sets it going */
  start(input: NewBroadcast): Promise<{ broadcast: Broadcast; created: boolean }>;
}

/** What copyMessage copies as the admin sent it (a poll, a sticker or a location is not offered). */
function broadcastable(m: Message): boolean {
  return Boolean(m.text ?? m.photo ?? m.video ?? m.document ?? m.audio ?? m.animation ?? m.voice);
}

/** A line for the admin's records: what was sent, not the whole of it. */
function describe(items: Message[]): string {
  const first = items[0]!;
  const kind = first.text
    ? "text"
    : first.photo
      ? "photo"
      : first.video
        ? "video"
        : first.document
          ? "document"
          : "media";
  const words = first.text ?? items.map((m) => m.caption ?? "").find((c) => c !== "") ?? "";
  const what = items.length > 1 ? `album of ${items.length}` : kind;
  return shorten(words ? `${what}: ${words}` : what, 200);
}

function audienceLabel(t: Translate, audience: BroadcastAudience, count: number): string {
  switch (audience.kind) {
    case "everyone":
      return t("bc-audience-everyone", { count });
    case "active":
      return t("bc-audience-active", { days: audience.days, count });
    case "language":
      return t("bc-audience-language", { language: t(`dub-lang-${audience.language}`), count });
  }
}

/**
 * /broadcast: the message (text, photo, video, document, or an album) → a
 * preview copied exactly as recipients get it → the audience, with counts →
 * confirm. The confirm's message becomes the progress message.
 */
export function broadcastConversation(deps: BroadcastConversationDeps) {
  return async (conversation: Conv, ctx: Context): Promise<void> => {
    const { screen, t, language, who } = await openConversation(conversation, ctx, {});
    const chatId = who.chatId;
    const cancelRow = () => new InlineKeyboard().text(t("cv-btn-cancel"), panelData.cancel());
    const cancelled = () => screen.close(t("bc-draft-cancelled"));

    await screen.show(t("bc-ask"), cancelRow());
    let items: Message[] = [];
    for (;;) {
      const event = await screen.next();
      if (event.type === "button") {
        if (event.action.kind === "cancel") return cancelled();
        if (event.action.kind === "done" && items.length > 0) break;
        continue;
      }
      const message = event.ctx.message;
      if (!message) continue;
      if (!broadcastable(message)) {
        await screen.notice(t("bc-unsupported"));
        continue;
      }
      const album = items[0]?.media_group_id;
      if (album !== undefined && message.media_group_id === album) {
        items.push(message);
        screen.keepPlace();
      } else {
        items = [message];
        if (message.media_group_id === undefined) break;
      }
      const keyboard = new InlineKeyboard()
        .text(t("bc-btn-preview"), panelData.done())
        .row()
        .text(t("cv-btn-cancel"), panelData.cancel());
      await screen.show(t("bc-album", { count: items.length }), keyboard);
    }

    const ids = items.map((m) => m.message_id).sort((a, b) => a - b);
    await screen.copyHere(chatId, ids);

    const counts = await conversation.external(() =>
      Promise.all(audienceChoices.map((a) => deps.countAudience(a))),
    );
    const audiences = new InlineKeyboard();
    audienceChoices.forEach((a, i) => {
      audiences.text(audienceLabel(t, a, counts[i] ?? 0), panelData.pick(audienceCode(a))).row();
    });
    audiences.text(t("cv-btn-cancel"), panelData.cancel());
    let chosen: { audience: BroadcastAudience; count: number } | undefined;
    while (!chosen) {
      await screen.show(`${t("bc-preview-above")}\n\n${t("bc-pick-audience")}`, audiences);
      const action = await screen.nextPress();
      if (action.kind === "cancel") return cancelled();
      if (action.kind !== "pick") continue;
      const audience = audienceFromCode(action.value);
      const index = audience ? audienceChoices.indexOf(audience) : -1;
      const count = counts[index] ?? 0;
      if (!audience) continue;
      if (count === 0) {
        await screen.notice(t("bc-empty-audience"));
        continue;
      }
      const confirm = new InlineKeyboard()
        .text(t("bc-btn-send", { count }), panelData.confirm())
        .row()
        .text(t("cv-btn-back"), panelData.back())
        .text(t("cv-btn-cancel"), panelData.cancel());
      await screen.show(t("bc-confirm", { audience: audienceLabel(t, audience, count) }), confirm);
      const answer = await screen.nextPress();
      if (answer.kind === "cancel") return cancelled();
      if (answer.kind === "confirm") chosen = { audience, count };
    }

    const progressId = await screen.show(t("bc-starting"), undefined);
    await conversation.external(() =>
      deps.start({
        adminId: who.userId,
        requestKey: `bc:${chatId}:${progressId}`,
        source: { chatId, messageIds: ids },
        audience: chosen.audience,
        text: describe(items),
        language,
        progress: { chatId, messageId: progressId },
      }),
    );
  };
}
