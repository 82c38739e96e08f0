import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Bot API that answers as fast as it can: every method succeeds, a
 * send returns a message in the asked chat, and sends are counted. The bench
 * measures the bots, so their Telegram must not be the bottleneck (the
 * playground's stand-in checks every rule and would be).
 */
export async function startBotApiSink(botId: number) {
  let sends = 0;
  let messageId = 1;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = (req.url ?? "").split("/").pop() ?? "";
      let result: unknown = true;
      if (method === "getMe") {
        result = {
          id: botId,
          is_bot: true,
          first_name: "Bench",
          username: "bench_bot",
          can_join_groups: true,
        };
      } else if (method === "sendMessage") {
        sends++;
        const params = parseParams(Buffer.concat(chunks).toString("utf8"));
        const chatId = Number(params.chat_id ?? 0);
        result = {
          message_id: messageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: "private", first_name: "User" },
          from: { id: botId, is_bot: true, first_name: "Bench" },
          text: String(params.text ?? ""),
        };
      } else if (method === "getWebhookInfo") {
        result = { url: "", has_custom_certificate: false, pending_update_count: 0 };
      } else if (method === "getMyCommands") {
        result = [];
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    get sends() {
      return sends;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseParams(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
