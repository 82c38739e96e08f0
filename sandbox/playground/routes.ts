import { readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import type { InlineKeyboardButton } from "grammy/types";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import { parseBuffer } from "music-metadata";
import { z } from "zod";
import type { Cast, CastMember } from "./cast";
import { type ChatFeed, viewOf } from "./chat-feed";
import type { FeedEvent } from "./feed-types";
import type { FileSpec, TelegramStandIn, TestUser } from "./telegram";
import { imageSize } from "./telegram/images";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

const sendSchema = z.object({
  user: z.number().int(),
  chatId: z.number().int(),
  text: z.string().min(1).max(4096),
  replyTo: z.number().int().positive().optional(),
  threadId: z.number().int().positive().optional(),
});

const pressSchema = z.object({
  user: z.number().int(),
  chatId: z.number().int(),
  messageId: z.number().int().positive(),
  row: z.number().int().min(0),
  column: z.number().int().min(0),
});

const renewSchema = z.strictObject({ user: z.number().int(), twice: z.boolean().default(false) });

/** an invoice in the chat (by its message), or an invoice link a Mini App opened (by its slug) */
const paySchema = z.union([
  z.object({ user: z.number().int(), chatId: z.number().int(), messageId: z.number().int().positive() }),
  z.object({ user: z.number().int(), slug: z.string().regex(/^[\w-]{1,64}$/) }),
]);

/** a Mini App opened from the private chat's menu button, or from a web_app button of a message */
const openAppSchema = z.object({
  user: z.number().int(),
  chatId: z.number().int(),
  messageId: z.number().int().positive().optional(),
  row: z.number().int().min(0).optional(),
  column: z.number().int().min(0).optional(),
});

const inlineQuerySchema = z.object({
  user: z.number().int(),
  chatId: z.number().int(),
  query: z.string().max(256),
});

const chooseSchema = z.object({
  user: z.number().int(),
  chatId: z.number().int(),
  queryId: z.string().min(1).max(64),
  resultId: z.string().min(1).max(64),
});

const uploadFields = z.object({
  user: z.coerce.number().int(),
  chatId: z.coerce.number().int(),
  caption: z.string().max(1024).optional(),
  replyTo: z.coerce.number().int().positive().optional(),
  threadId: z.coerce.number().int().positive().optional(),
  /** "photo": images as photos (several: an album); "file": each as audio, video or document */
  as: z.enum(["photo", "file"]),
});

class BadInput extends Error {}

const maxUploadBytes = 100 * 1024 * 1024 + 64 * 1024;

/** The page's HTTP API and its files; mounted under /playground by the web role. */
export function playgroundRoutes(deps: {
  tg: TelegramStandIn;
  cast: Cast;
  feed: ChatFeed;
  /** the built page: index.html and assets/ */
  distDir: string;
  /** a larger upload is refused (413) before it is read */
  maxUploadBytes?: number;
  /** the server's public address: a Mini App on it is opened from the page's own origin */
  publicUrl?: string;
}): Hono {
  const { tg, cast, feed } = deps;
  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof BadInput) return c.json({ error: err.message }, 400);
    // the page shows it in its banner: words, not zod's JSON
    if (err instanceof z.ZodError) return c.json({ error: z.prettifyError(err) }, 400);
    // a mistake in this code, not the user's: it must show as one
    if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError)
      return c.json({ error: "failed" }, 500);
    // the stand-in refuses what Telegram would refuse (not a member, no such message): the user's mistake
    if (err instanceof Error) return c.json({ error: err.message.split("\n")[0] }, 400);
    return c.json({ error: "failed" }, 500);
  });

  const chatIds = () => [...cast.members.map((m) => m.user.chatId), cast.group.id];
  const memberOf = (userId: number): CastMember => {
    const member = cast.member(userId);
    if (!member) throw new BadInput("no such user");
    return member;
  };
  /** The group, or the acting user's own private chat: nobody writes in another's. */
  const chatOf = (chatId: number, actor?: CastMember) => {
    if (!chatIds().includes(chatId)) throw new BadInput("no such chat");
    if (chatId === cast.group.id) return { group: cast.group };
    if (actor && actor.user.chatId !== chatId) throw new BadInput("that is another user's private chat");
    return {};
  };
  const bodyOf = async <T>(c: { req: { json(): Promise<unknown> } }, schema: z.ZodType<T>) => {
    const body = await c.req.json().catch(() => {
      throw new BadInput("JSON body expected");
    });
    return schema.parse(body);
  };

  app.get("/api/state", (c) =>
    c.json({
      bot: tg.botUser,
      users: cast.members.map((m) => ({
        id: m.user.id,
        name: m.user.info.first_name,
        ...(m.user.info.username ? { username: m.user.info.username } : {}),
        language: m.user.info.language_code,
        role: m.role,
        admin: m.admin,
      })),
      group: {
        id: cast.group.id,
        title: cast.group.chat.type === "supergroup" ? cast.group.chat.title : "",
        owner: cast.owner.user.info.first_name,
      },
      topics: cast.topics,
    }),
  );

  app.get("/api/chats/:chatId/messages", (c) => {
    const chatId = Number(c.req.param("chatId"));
    chatOf(chatId);
    const chat = tg.chat(chatId);
    return c.json((chat?.messages ?? []).filter((m) => !m.deleted).map((m) => viewOf(chatId, m)));
  });

  app.get("/api/commands", (c) => {
    const member = memberOf(Number(c.req.query("user")));
    const chatId = Number(c.req.query("chat") ?? member.user.chatId);
    chatOf(chatId);
    return c.json(
      tg.commandMenu(chatId, { userId: member.user.id, language: member.user.info.language_code }),
    );
  });

  app.post("/api/send", async (c) => {
    const input = await bodyOf(c, sendSchema);
    const member = memberOf(input.user);
    const { user } = member;
    const { group } = chatOf(input.chatId, member);
    const options = {
      ...(input.replyTo ? { replyTo: input.replyTo } : {}),
      ...(input.threadId && group ? { threadId: input.threadId } : {}),
    };
    const message = group
      ? await user.sendIn(group, input.text, options)
      : await user.send(input.text, options);
    feed.refresh();
    return c.json({ id: message.message_id });
  });

  app.post("/api/press", async (c) => {
    const input = await bodyOf(c, pressSchema);
    const member = memberOf(input.user);
    const { user } = member;
    const { group } = chatOf(input.chatId, member);
    const stored = tg.chat(input.chatId)?.byId.get(input.messageId);
    const button = stored?.message.reply_markup?.inline_keyboard[input.row]?.[input.column];
    if (!stored || stored.deleted || !button) throw new BadInput("no such button");
    if (!("callback_data" in button)) throw new BadInput("this button opens a link");
    const inlineMessageId = tg.inlineMessageIdAt(input.chatId, input.messageId);
    const matches = (b: InlineKeyboardButton) =>
      b.text === button.text && "callback_data" in b && b.callback_data === button.callback_data;
    if (inlineMessageId) {
      // a message sent via the bot: its press carries inline_message_id, not the message
      const queryId = user.pressInline(inlineMessageId, matches);
      void announceAnswer(user, input.chatId, queryId);
      return c.json({ queryId });
    }
    const queryId = await user.press((b, m) => m.message_id === input.messageId && matches(b), {
      message: input.messageId,
      ...(group ? { in: group } : {}),
    });
    void announceAnswer(user, input.chatId, queryId);
    return c.json({ queryId });
  });

  /**
   * Pays an invoice as Telegram's client does: a pre-checkout query the bot
   * must approve within Telegram's limit, then the successful_payment message.
   * Test Stars: nothing real is spent.
   */
  app.post("/api/pay", async (c) => {
    const input = await bodyOf(c, paySchema);
    const member = memberOf(input.user);
    let invoice: number | string;
    if ("slug" in input) {
      invoice = input.slug;
    } else {
      chatOf(input.chatId, member);
      if (input.chatId !== member.user.chatId) throw new BadInput("an invoice is paid in its own chat");
      invoice = input.messageId;
    }
    const outcome = await member.user.pay(invoice);
    feed.refresh();
    if (outcome.ok) return c.json({ ok: true });
    return c.json({
      ok: false,
      error:
        outcome.reason === "declined" ? outcome.errorMessage : "The bot did not confirm the order in time.",
    });
  });

  /** What Telegram's payment form shows for an invoice link a Mini App opened. */
  app.get("/api/invoice-links/:slug", (c) => {
    const member = memberOf(Number(c.req.query("user")));
    const invoice = member.user.invoiceLink(c.req.param("slug"));
    if (!invoice) return c.json({ error: "no such invoice" }, 404);
    const { title, description, currency, total, subscriptionPeriod } = invoice;
    return c.json({
      title,
      description,
      currency,
      total,
      ...(subscriptionPeriod ? { subscriptionPeriod } : {}),
    });
  });

  /** A month passes for a user: Telegram renews their Stars subscriptions (each renewal's update twice when asked). */
  app.post("/api/subscriptions/renew", async (c) => {
    const input = await bodyOf(c, renewSchema);
    const renewed = memberOf(input.user).user.renewSubscriptions({ deliverTwice: input.twice });
    feed.refresh();
    return c.json({ renewed: renewed.length });
  });

  /** The menu button of a user's private chat with the bot (a Mini App's, or the command list). */
  app.get("/api/menu-button", (c) => c.json(memberOf(Number(c.req.query("user"))).user.menuButton()));

  /**
   * Opens a Mini App as Telegram's client does: the URL to load, with init
   * data signed for this user in its hash. An app on this server is loaded
   * from the page's own origin, whatever name the bot knows the server by.
   */
  app.post("/api/webapp/open", async (c) => {
    const input = await bodyOf(c, openAppSchema);
    const member = memberOf(input.user);
    chatOf(input.chatId, member);
    let launch: ReturnType<TestUser["openWebApp"]>;
    if (input.messageId === undefined) {
      launch = member.user.openWebApp("menu");
    } else {
      const stored = tg.chat(input.chatId)?.byId.get(input.messageId);
      const button = stored?.message.reply_markup?.inline_keyboard[input.row ?? 0]?.[input.column ?? 0];
      if (!stored || stored.deleted || !button || !("web_app" in button))
        throw new BadInput("no such Mini App button");
      launch = member.user.openWebApp((b) => b === button, { message: input.messageId });
    }
    const url = new URL(launch.url);
    const local = deps.publicUrl && url.origin === new URL(deps.publicUrl).origin;
    return c.json({ url: local ? `${url.pathname}${url.search}${url.hash}` : launch.url });
  });

  /** `@bot query` typed in a chat: the bot's answer, as the results panel shows it. */
  app.post("/api/inline", async (c) => {
    const input = await bodyOf(c, inlineQuerySchema);
    const member = memberOf(input.user);
    const { group } = chatOf(input.chatId, member);
    const queryId = member.user.inlineQuery(input.query, { chatType: group ? "supergroup" : "sender" });
    const answer = await member.user.waitForInlineAnswer(queryId, { timeoutMs: 10_000 });
    return c.json({ queryId, results: answer.results, ...(answer.button ? { button: answer.button } : {}) });
  });

  /** A result picked from the panel: sent via the bot into the chat. */
  app.post("/api/inline/choose", async (c) => {
    const input = await bodyOf(c, chooseSchema);
    const member = memberOf(input.user);
    const { group } = chatOf(input.chatId, member);
    const { message } = member.user.chooseInlineResult(
      input.queryId,
      input.resultId,
      group ? { chat: group } : {},
    );
    feed.refresh();
    return c.json({ id: message.message_id });
  });

  /** The bot's answer to a press reaches the page as a toast or an alert. */
  async function announceAnswer(user: TestUser, chatId: number, queryId: string) {
    try {
      const answer = await user.waitForAnswer(queryId, { timeoutMs: 15_000 });
      feed.publish({
        type: "answer",
        chatId,
        queryId,
        ...(answer.text ? { text: answer.text } : {}),
        alert: answer.show_alert === true,
      });
    } catch {
      // unanswered: Telegram's client just stops the spinner
      feed.publish({ type: "answer", chatId, queryId, alert: false });
    }
  }

  // an album of 10 photos at Telegram's 10 MB each, and no more: the form is read into memory
  app.post(
    "/api/upload",
    bodyLimit({
      maxSize: deps.maxUploadBytes ?? maxUploadBytes,
      onError: (c) => c.json({ error: "the upload is too large" }, 413),
    }),
  );
  app.post("/api/upload", async (c) => {
    const form = await c.req.formData().catch(() => {
      throw new BadInput("multipart form expected");
    });
    const fields = uploadFields.parse(
      Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== "")),
    );
    const files = form
      .getAll("files")
      .flatMap((f) =>
        typeof f === "string"
          ? []
          : [f as { name: string; type: string; arrayBuffer(): Promise<ArrayBuffer> }],
      );
    if (files.length === 0) throw new BadInput("no files");
    if (fields.as === "photo" && files.length > 10) throw new BadInput("an album holds at most 10 photos");
    const member = memberOf(fields.user);
    const { user } = member;
    const { group } = chatOf(fields.chatId, member);
    const where = {
      ...(group ? { in: group } : {}),
      ...(fields.threadId && group ? { threadId: fields.threadId } : {}),
      ...(fields.replyTo ? { replyTo: fields.replyTo } : {}),
    };
    const caption = fields.caption ? { caption: fields.caption } : {};
    const ids: number[] = [];
    if (fields.as === "photo") {
      const photos = await Promise.all(
        files.map(async (file, i) => {
          const bytes = Buffer.from(await file.arrayBuffer());
          const size = imageSize(bytes);
          if (!size) throw new BadInput(`${file.name} is not a PNG or JPEG picture`);
          return { bytes, ...size, ...(i === 0 ? caption : {}) };
        }),
      );
      const sent =
        photos.length === 1 ? [await user.sendPhoto(photos[0]!, where)] : await user.sendAlbum(photos, where);
      ids.push(...sent.map((m) => m.message_id));
    } else {
      for (const [i, file] of files.entries()) {
        const bytes = Buffer.from(await file.arrayBuffer());
        const spec: FileSpec = {
          bytes,
          fileName: file.name || "file",
          mimeType: file.type || "application/octet-stream",
          ...(i === 0 ? caption : {}),
        };
        const kind = spec.mimeType!.split("/")[0];
        if (kind === "audio" || kind === "video") {
          const duration = await durationOf(bytes, spec.mimeType!);
          if (duration !== undefined) spec.duration = duration;
          const sent =
            kind === "audio" ? await user.sendAudio(spec, where) : await user.sendVideo(spec, where);
          ids.push(sent.message_id);
        } else {
          ids.push((await user.sendDocument(spec, where)).message_id);
        }
      }
    }
    feed.refresh();
    return c.json({ ids });
  });

  app.get("/api/files/:fileId", (c) => {
    const file = tg.file(c.req.param("fileId"));
    if (!file) return c.json({ error: "no such file" }, 404);
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "content-type": file.mime ?? "application/octet-stream",
        "content-length": String(file.bytes.length),
        ...(file.name
          ? { "content-disposition": `inline; filename="${file.name.replace(/["\\\r\n]/g, "_")}"` }
          : {}),
      },
    });
  });

  app.get("/api/events", (c) =>
    streamSSE(c, async (stream) => {
      const queue: FeedEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = feed.subscribe((event) => {
        queue.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await stream.writeSSE({ event: "ready", data: "{}" });
      while (!stream.aborted) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ event: "feed", data: JSON.stringify(event) });
          continue;
        }
        // a comment now and then keeps proxies from closing a quiet stream
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 15_000);
        });
        wake = undefined;
        if (queue.length === 0 && !stream.aborted) await stream.write(": keep-alive\n\n");
      }
      unsubscribe();
    }),
  );

  app.get("/*", (c) => {
    const path = new URL(c.req.url).pathname.replace(/^.*?\/playground/, "") || "/";
    const relative = normalize(path === "/" ? "/index.html" : path);
    if (relative.includes("..")) return c.notFound();
    const file = join(deps.distDir, relative);
    if (!file.startsWith(deps.distDir) || !statSync(file, { throwIfNoEntry: false })?.isFile())
      return c.notFound();
    return new Response(readFileSync(file), {
      headers: { "content-type": contentTypes[extname(file)] ?? "application/octet-stream" },
    });
  });
  return app;
}

async function durationOf(bytes: Buffer, mimeType: string): Promise<number | undefined> {
  try {
    const meta = await parseBuffer(
      bytes,
      { mimeType, size: bytes.length },
      { duration: true, skipCovers: true },
    );
    return meta.format.duration === undefined ? undefined : Math.max(1, Math.round(meta.format.duration));
  } catch {
    return undefined;
  }
}
