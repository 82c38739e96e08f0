import { eq } from "drizzle-orm";
import fc from "fast-check";
import type { InlineKeyboardButton, Message, Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestGroup, TestUser } from "../../sandbox/playground/telegram";
import { generations, processedUpdates } from "../../src/platform/db/schema";
import { eventually, type Harness, startedUser, startHarness } from "../support/harness";

/**
 * Random updates of every type the bot asks for, from a few users in their
 * private chats and a group: texts, commands, captions, files, edits, button
 * presses with real and random callback data, inline queries, membership
 * changes, pre-checkout queries. Whatever comes, no error-level log line,
 * every press answered exactly once, and no credit spent (Confirm is the one
 * button left out: pressing it is a real purchase).
 */
describe("the bot under random updates", () => {
  let h: Harness;
  const logs: string[] = [];
  let people: TestUser[] = [];
  let group: TestGroup;
  const pressed: string[] = [];
  const sent = new Map<number, Message[]>();
  let serial = 0;

  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "info" } });
    people = [await startedUser(h), await startedUser(h), await startedUser(h, "fa")];
    group = h.tg.group({ members: people.slice(0, 2) });
  });
  afterAll(async () => h?.stop());

  const errorLines = () =>
    logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50).map((l) => l.slice(0, 600));

  const commands = [
    "/start",
    "/help",
    "/balance",
    "/history",
    "/language",
    "/cancel",
    "/image",
    "/video",
    "/edit",
    "/dub",
    "/unknown",
  ] as const;
  const text = fc
    .oneof(
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc
        .tuple(fc.constantFrom(...commands), fc.string({ unit: "grapheme", maxLength: 40 }))
        .map(([c, a]) => `${c} ${a}`),
      fc.constantFrom(
        "\u200B\u200B\u200B",
        "/image \u200B",
        "https://example.com/a.mp3",
        "http://example.com/x",
        "fa",
        "en",
      ),
    )
    .filter((t) => t.trim().length > 0);
  const callbackData = fc
    .oneof(
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
      // what a generation id looks like to a loose pattern: hex digits and hyphens
      fc
        .tuple(
          fc.constantFrom("rg:", "ed:", "hs:"),
          fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9a-f-]{36}$/)),
        )
        .map(([prefix, value]) => prefix + value),
      fc
        .tuple(
          fc.constantFrom("rg:", "ed:", "hs:", "language:", "cv:o:", "cv:p:", "cv:g:", "cv:t:", "cv:", "qc:"),
          fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("-".repeat(36), "0".repeat(36), "en", "fa")),
        )
        .map(([prefix, value]) => prefix + value),
      fc.constantFrom("cv:b", "cv:x", "cv:n", "cv:d"),
    )
    .filter((d) => d !== "cv:ok" && Buffer.byteLength(d) <= 64);
  const caption = fc.option(text, { nil: undefined });
  const action = fc.record({
    who: fc.nat(2),
    pick: fc.nat(),
    what: fc.oneof(
      text.map((t) => ({ kind: "text" as const, t })),
      text.map((t) => ({ kind: "group-text" as const, t })),
      caption.map((c) => ({ kind: "photo" as const, c })),
      fc.record({
        kind: fc.constant("file" as const),
        type: fc.constantFrom("document", "audio", "video", "voice"),
        c: caption,
        size: fc.integer({ min: 1, max: 200_000_000 }),
        duration: fc.integer({ min: 1, max: 900 }),
        mime: fc.constantFrom("image/png", "audio/mpeg", "video/mp4", "application/pdf", "audio/ogg"),
      }),
      text.map((t) => ({ kind: "edit" as const, t })),
      { arbitrary: callbackData.map((data) => ({ kind: "press-data" as const, data })), weight: 3 },
      fc.constant({ kind: "press-button" as const }),
      text.map((t) => ({ kind: "inline" as const, t })),
      fc.constant({ kind: "chosen-inline" as const }),
      fc.constant({ kind: "block-unblock" as const }),
      fc.string({ maxLength: 40 }).map((payload) => ({ kind: "pre-checkout" as const, payload })),
    ),
  });
  type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

  function remember(user: TestUser, m: Message): void {
    sent.set(user.id, [...(sent.get(user.id) ?? []), m]);
  }

  async function perform({ who, pick, what }: Action): Promise<void> {
    const user = people[who]!;
    switch (what.kind) {
      case "text":
        remember(user, await user.send(what.t));
        return;
      case "group-text":
        await people[who % 2]!.sendIn(
          group,
          what.t.startsWith("/") ? what.t.replace(/^(\/\w+)/, `$1@${h.tg.botUser.username}`) : what.t,
        );
        return;
      case "photo":
        remember(user, await user.sendPhoto(what.c === undefined ? {} : { caption: what.c }));
        return;
      case "file": {
        const spec = {
          declaredSize: what.size,
          duration: what.duration,
          mimeType: what.mime,
          ...(what.c !== undefined ? { caption: what.c } : {}),
        };
        const send = {
          document: user.sendDocument,
          audio: user.sendAudio,
          video: user.sendVideo,
          voice: user.sendVoice,
        }[what.type];
        remember(user, await send.call(user, spec));
        return;
      }
      case "edit": {
        const mine = (sent.get(user.id) ?? []).filter((m) => m.text !== undefined);
        const original = mine[pick % Math.max(1, mine.length)];
        if (!original) return;
        h.tg.inject({
          edited_message: {
            ...original,
            text: what.t,
            edit_date: Math.floor(Date.now() / 1000),
          } as Update["edited_message"] & object,
        });
        return;
      }
      case "press-data": {
        const messages = user.messages();
        const target = messages[pick % Math.max(1, messages.length)];
        if (!target) return;
        const { history: _h, deleted: _d, keyboard: _k, ...message } = target;
        const id = `fuzz-${++serial}`;
        h.tg.inject({
          callback_query: {
            id,
            from: { id: user.id, is_bot: false, first_name: "Fuzz" },
            message,
            chat_instance: "fuzz",
            data: what.data,
          },
        });
        pressed.push(id);
        return;
      }
      case "press-button": {
        const withButtons = user
          .messages()
          .filter((m) => (m.reply_markup?.inline_keyboard.flat() ?? []).some(pressable));
        const target = withButtons[pick % Math.max(1, withButtons.length)];
        if (!target) return;
        const buttons = target.reply_markup!.inline_keyboard.flat().filter(pressable);
        const chosen = buttons[pick % buttons.length]!;
        pressed.push(await user.press((b) => b === chosen, { message: target }));
        return;
      }
      case "inline":
        user.inlineQuery(what.t);
        return;
      case "chosen-inline":
        h.tg.inject({
          chosen_inline_result: {
            result_id: `r${pick}`,
            from: { id: user.id, is_bot: false, first_name: "Fuzz" },
            query: "q",
          },
        });
        return;
      case "block-unblock":
        await user.block();
        await user.unblock();
        return;
      case "pre-checkout":
        h.tg.inject({
          pre_checkout_query: {
            id: `pcq-${++serial}`,
            from: { id: user.id, is_bot: false, first_name: "Fuzz" },
            currency: "XTR",
            total_amount: (pick % 1000) + 1,
            invoice_payload: what.payload,
          },
        });
        return;
    }
  }

  /** Any button but Confirm (a real purchase) and links. */
  const pressable = (b: InlineKeyboardButton) => "callback_data" in b && !b.text.includes("✅");

  const settle = async () => {
    await h.tg.idle();
    await eventually(
      async () =>
        (await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"))) === 0
          ? true
          : undefined,
      60_000,
    );
  };

  test("no error logged, every press answered exactly once, no credit spent", {
    timeout: 180_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 25, maxLength: 40 }), async (actions) => {
        for (const a of actions) await perform(a);
        await settle();
        expect(errorLines()).toEqual([]);
        for (const id of pressed) {
          const answers = h.tg
            .callsOf("answerCallbackQuery")
            .filter((c) => c.params.callback_query_id === id);
          expect(answers.length, `answers to ${id}`).toBe(1);
        }
        for (const user of people) {
          expect(await h.runtime.ledger.account(user.id)).toEqual({
            userId: user.id,
            available: 100,
            held: 0,
          });
          expect(await h.db.db.$count(generations, eq(generations.userId, user.id))).toBe(0);
        }
      }),
      { numRuns: 4, endOnFailure: true },
    );
    // the runs did reach the bot: every update handled to completion
    expect(await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "done"))).toBeGreaterThan(80);
    expect(pressed.length).toBeGreaterThan(5);
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });
});
