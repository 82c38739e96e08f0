import type { MessageEntity } from "grammy/types";
import { badRequest } from "./errors";

/**
 * parse_mode as Telegram applies it: the text that counts against the length
 * limits is the text after entity parsing, and malformed markup is rejected
 * with "can't parse entities".
 */
export interface Formatted {
  text: string;
  entities: MessageEntity[];
}

const byteOffset = (input: string, index: number) => Buffer.byteLength(input.slice(0, index), "utf8");
const cantParse = (reason: string) => badRequest(`can't parse entities: ${reason}`);

export function parseFormatted(input: string, parseMode: string | undefined): Formatted {
  if (parseMode === undefined || parseMode === "") return { text: input, entities: [] };
  switch (parseMode.toLowerCase()) {
    case "html":
      return parseHtml(input);
    case "markdownv2":
      return parseMarkdownV2(input);
    case "markdown":
      return parseLegacyMarkdown(input);
    default:
      throw badRequest("unsupported parse_mode");
  }
}

interface Open {
  tag: string;
  start: number;
  entity: Omit<MessageEntity, "offset" | "length"> | undefined;
}

const simpleTags: Record<string, MessageEntity["type"]> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  code: "code",
  pre: "pre",
};

const namedEntities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const re = /([a-zA-Z_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const m of source.matchAll(re)) {
    attributes.set(m[1]!.toLowerCase(), decodeHtmlEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return attributes;
}

function decodeHtmlEntities(s: string): string {
  return s.replace(
    /&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/g,
    (whole, name: string) => decodeEntity(name) ?? whole,
  );
}

function decodeEntity(name: string): string | undefined {
  if (name.startsWith("#x") || name.startsWith("#X"))
    return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
  if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
  return namedEntities[name.toLowerCase()];
}

function parseHtml(input: string): Formatted {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: Open[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === "<") {
      const rest = input.slice(i);
      if (rest.startsWith("</")) {
        const end = /^<\/([a-zA-Z][a-zA-Z0-9-]*)?\s*>/.exec(rest);
        if (!end) throw cantParse(`Unexpected end tag at byte offset ${byteOffset(input, i)}`);
        const name = (end[1] ?? "").toLowerCase();
        const top = stack.pop();
        if (!top) throw cantParse(`Unexpected end tag at byte offset ${byteOffset(input, i)}`);
        if (name !== "" && name !== top.tag) {
          throw cantParse(
            `Unmatched end tag at byte offset ${byteOffset(input, i)}, expected "</${top.tag}>", found "</${name}>"`,
          );
        }
        if (top.entity && text.length > top.start) {
          entities.push({
            ...top.entity,
            offset: top.start,
            length: text.length - top.start,
          } as MessageEntity);
        }
        i += end[0].length;
        continue;
      }
      const start = /^<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^>]*)?)>/.exec(rest);
      const tag = (start?.[1] ?? /^<([^\s>]*)/.exec(rest)?.[1] ?? "").toLowerCase();
      if (!start) throw cantParse(`Unsupported start tag "${tag}" at byte offset ${byteOffset(input, i)}`);
      const attributes = parseAttributes(start[2] ?? "");
      let entity: Open["entity"];
      if (tag in simpleTags) {
        entity = { type: simpleTags[tag]! } as Open["entity"];
        const parent = stack.at(-1);
        if (tag === "code" && parent?.tag === "pre" && parent.entity) {
          const language = attributes.get("class")?.replace(/^language-/, "");
          if (language) Object.assign(parent.entity, { language });
          entity = undefined;
        }
      } else if (tag === "span") {
        if (attributes.get("class") !== "tg-spoiler") {
          throw cantParse(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(input, i)}`);
        }
        entity = { type: "spoiler" };
      } else if (tag === "a") {
        const href = attributes.get("href") ?? "";
        const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
        entity = mention
          ? ({
              type: "text_mention",
              user: { id: Number(mention[1]), is_bot: false, first_name: "" },
            } as Open["entity"])
          : ({ type: "text_link", url: href } as Open["entity"]);
      } else if (tag === "blockquote") {
        entity = { type: attributes.has("expandable") ? "expandable_blockquote" : "blockquote" };
      } else if (tag === "tg-emoji") {
        const id = attributes.get("emoji-id");
        if (!id) throw cantParse(`Custom emoji entity must contain a valid custom emoji identifier`);
        entity = { type: "custom_emoji", custom_emoji_id: id } as Open["entity"];
      } else {
        throw cantParse(`Unsupported start tag "${tag}" at byte offset ${byteOffset(input, i)}`);
      }
      stack.push({ tag, start: text.length, entity });
      i += start[0].length;
      continue;
    }
    if (ch === "&") {
      const m = /^&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/.exec(input.slice(i));
      const decoded = m ? decodeEntity(m[1]!) : undefined;
      if (m && decoded !== undefined) {
        text += decoded;
        i += m[0].length;
        continue;
      }
    }
    text += ch;
    i += 1;
  }
  const open = stack.pop();
  if (open) throw cantParse(`Can't find end tag corresponding to start tag "${open.tag}"`);
  return { text, entities };
}

const reservedV2 = new Set("_*[]()~`>#+-=|{}.!");
const markerNames: Record<string, string> = {
  "*": "Bold",
  _: "Italic",
  __: "Underline",
  "~": "Strikethrough",
  "||": "Spoiler",
  "[": "TextUrl",
};
const markerTypes: Record<string, MessageEntity["type"]> = {
  "*": "bold",
  _: "italic",
  __: "underline",
  "~": "strikethrough",
  "||": "spoiler",
};

function parseMarkdownV2(input: string): Formatted {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: { marker: string; start: number; at: number }[] = [];
  let i = 0;
  const atLineStart = () => i === 0 || input[i - 1] === "\n";
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === "\\") {
      const next = input[i + 1];
      if (next === undefined)
        throw cantParse(`Can't find escaped character at byte offset ${byteOffset(input, i)}`);
      text += next;
      i += 2;
      continue;
    }
    if (ch === "`") {
      const fence = input.startsWith("```", i);
      const open = fence ? "```" : "`";
      let j = i + open.length;
      let body = "";
      let closed = false;
      while (j < input.length) {
        if (input[j] === "\\" && j + 1 < input.length) {
          body += input[j + 1];
          j += 2;
          continue;
        }
        if (input.startsWith(open, j)) {
          closed = true;
          break;
        }
        body += input[j];
        j += 1;
      }
      if (!closed) {
        throw cantParse(
          `Can't find end of ${fence ? "Pre" : "Code"} entity at byte offset ${byteOffset(input, i)}`,
        );
      }
      let language: string | undefined;
      if (fence) {
        const newline = body.indexOf("\n");
        if (newline >= 0 && /^[\w+#-]*$/.test(body.slice(0, newline))) {
          language = body.slice(0, newline) || undefined;
          body = body.slice(newline + 1);
        }
      }
      if (body.length > 0) {
        entities.push(
          (fence
            ? { type: "pre", offset: text.length, length: body.length, ...(language ? { language } : {}) }
            : { type: "code", offset: text.length, length: body.length }) as MessageEntity,
        );
      }
      text += body;
      i = j + open.length;
      continue;
    }
    if (ch === ">" && atLineStart()) {
      i += 1;
      continue;
    }
    if (ch === "]") {
      const top = stack.at(-1);
      if (top?.marker !== "[") throw reservedError(ch);
      stack.pop();
      if (input[i + 1] !== "(") throw cantParse(`Can't find end of TextUrl entity at byte offset ${top.at}`);
      let j = i + 2;
      let url = "";
      while (j < input.length && input[j] !== ")") {
        if (input[j] === "\\" && j + 1 < input.length) {
          url += input[j + 1];
          j += 2;
          continue;
        }
        url += input[j];
        j += 1;
      }
      if (j >= input.length)
        throw cantParse(`Can't find end of a URL at byte offset ${byteOffset(input, i + 1)}`);
      if (text.length > top.start) {
        entities.push({ type: "text_link", offset: top.start, length: text.length - top.start, url });
      }
      i = j + 1;
      continue;
    }
    const marker = input.startsWith("__", i)
      ? "__"
      : input.startsWith("||", i)
        ? "||"
        : ch === "*" || ch === "_" || ch === "~" || ch === "["
          ? ch
          : undefined;
    if (marker) {
      const index = stack.findIndex((s) => s.marker === marker);
      if (marker !== "[" && index >= 0) {
        if (index !== stack.length - 1) {
          const top = stack.at(-1)!;
          throw cantParse(`Can't find end of ${markerNames[top.marker]} entity at byte offset ${top.at}`);
        }
        const open = stack.pop()!;
        if (text.length > open.start) {
          entities.push({
            type: markerTypes[marker]!,
            offset: open.start,
            length: text.length - open.start,
          } as MessageEntity);
        }
      } else {
        stack.push({ marker, start: text.length, at: byteOffset(input, i) });
      }
      i += marker.length;
      continue;
    }
    if (reservedV2.has(ch)) throw reservedError(ch);
    text += ch;
    i += 1;
  }
  const open = stack.pop();
  if (open) throw cantParse(`Can't find end of ${markerNames[open.marker]} entity at byte offset ${open.at}`);
  return { text, entities };
}

function reservedError(ch: string) {
  return cantParse(`Character '${ch}' is reserved and must be escaped with the preceding '\\'`);
}

function parseLegacyMarkdown(input: string): Formatted {
  let text = "";
  const entities: MessageEntity[] = [];
  let i = 0;
  const pairs: Record<string, MessageEntity["type"]> = { "*": "bold", _: "italic", "`": "code" };
  while (i < input.length) {
    const ch = input[i]!;
    if (input.startsWith("```", i)) {
      const end = input.indexOf("```", i + 3);
      if (end < 0)
        throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(input, i)}`);
      const body = input.slice(i + 3, end);
      entities.push({ type: "pre", offset: text.length, length: body.length });
      text += body;
      i = end + 3;
      continue;
    }
    if (ch in pairs) {
      const end = input.indexOf(ch, i + 1);
      if (end < 0)
        throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(input, i)}`);
      const body = input.slice(i + 1, end);
      if (body.length > 0)
        entities.push({ type: pairs[ch]!, offset: text.length, length: body.length } as MessageEntity);
      text += body;
      i = end + 1;
      continue;
    }
    if (ch === "[") {
      const m = /^\[([^\]]*)\]\(([^)]*)\)/.exec(input.slice(i));
      if (!m) throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(input, i)}`);
      entities.push({ type: "text_link", offset: text.length, length: m[1]!.length, url: m[2]! });
      text += m[1];
      i += m[0].length;
      continue;
    }
    if (ch === "\\" && i + 1 < input.length && "*_`[".includes(input[i + 1]!)) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    text += ch;
    i += 1;
  }
  return { text, entities };
}

/** Telegram strips leading and trailing whitespace from texts and captions; entities move with the text. */
export function trimFormatted(formatted: Formatted): Formatted {
  const lead = formatted.text.length - formatted.text.trimStart().length;
  const text = formatted.text.trim();
  const entities = formatted.entities
    .map((e) => {
      const start = Math.max(0, e.offset - lead);
      const end = Math.min(text.length, e.offset - lead + e.length);
      return { ...e, offset: start, length: end - start };
    })
    .filter((e) => e.length > 0);
  return { text, entities };
}

/** A character that continues a word: before a "/" it makes no command, after one it belongs to it (tdlib's rule). */
const wordLike = /[\p{L}\p{N}_/<>]/u;

/**
 * The bot commands and links Telegram finds in a text and marks as entities,
 * so clients make them tappable. A command (`bot_command`): a "/" not right
 * after a letter, digit, "_", "/", "<" or ">", then 1 to 64 Latin letters,
 * digits or "_" (and an optional @username), not followed by another such
 * character; Unicode isolation marks around it (a right-to-left text's) do not
 * hide it. A link (`url`): http:// or https:// up to the next space, without a
 * closing punctuation mark. Where the given entities already cover one, nothing is added.
 */
export function withDetectedEntities(formatted: Formatted): Formatted {
  const found: MessageEntity[] = [];
  const covered = (start: number, end: number) =>
    [...formatted.entities, ...found].some((e) => e.offset < end && start < e.offset + e.length);
  for (const m of formatted.text.matchAll(/https?:\/\/[^\s\u2068\u2069]+/g)) {
    const link = m[0].replace(/[.,;:!?)»"']+$/, "");
    if (!covered(m.index, m.index + link.length))
      found.push({ type: "url", offset: m.index, length: link.length });
  }
  for (const m of formatted.text.matchAll(/\/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?/g)) {
    const before = m.index > 0 ? formatted.text[m.index - 1]! : " ";
    const after = formatted.text[m.index + m[0].length] ?? " ";
    if (wordLike.test(before) || wordLike.test(after) || after === "@") continue;
    if (covered(m.index, m.index + m[0].length)) continue;
    found.push({ type: "bot_command", offset: m.index, length: m[0].length });
  }
  if (found.length === 0) return formatted;
  return {
    text: formatted.text,
    entities: [...formatted.entities, ...found].sort((a, b) => a.offset - b.offset),
  };
}
