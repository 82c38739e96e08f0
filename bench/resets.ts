import { generationIn, requestImage, startedUser, startHarness } from "../test/support/harness";
import { big, fire, mix, type Shot, small } from "../test/support/keep-alive-shots";
import { report } from "./support/report";

/**
 * The connection-reset reproduction of issue 29: per route, 1,000 requests 12 at
 * a time through Node's keep-alive agent, a quarter of them 3 MB bodies the
 * route refuses before reading them, the rest what a hostile or confused
 * sender mixes in; three runs each. Counts the requests that got no HTTP
 * answer at all (before the fix: 29 per 1,000 on the media webhook, 197 in the sandbox).
 *
 *   npm run bench:resets
 */
const runs = 3;
const requests = 1_000;
const telegramSecret = "tg-webhook-secret-0123456789";

const h = await startHarness({ env: { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: telegramSecret } });
try {
  // a real task, so that a replay of its webhook is a valid one
  const user = await startedUser(h);
  await requestImage(user, "a replayed lighthouse");
  const g = await generationIn(h, user.id, "delivered", 60_000);
  const task = h.sim.task(g.taskId ?? "");
  const media = `/webhooks/media/${h.config.media.webhookSecret}`;
  const json = { "content-type": "application/json" };
  const tg = { ...json, "x-telegram-bot-api-secret-token": telegramSecret };
  const forged = {
    ...json,
    "webhook-id": "msg_forged",
    "webhook-timestamp": "1",
    "webhook-signature": "v1,AAAA",
  };
  const replay = small(JSON.stringify({ event: "task.completed", data: task }));

  const routes: Record<string, { large: Shot[]; others: Shot[] }> = {
    "media webhook": {
      large: [
        { method: "POST", path: media, headers: json, body: big },
        { method: "POST", path: media, headers: json, body: big, chunked: true },
        { method: "POST", path: "/webhooks/media/not-the-secret", headers: json, body: big },
      ],
      others: [
        { method: "POST", path: media, headers: json, body: replay },
        { method: "POST", path: media, headers: forged, body: replay },
        { method: "POST", path: media, headers: json, body: small("{not json") },
        { method: "POST", path: media, headers: json, body: small("hello") },
        { method: "GET", path: media },
        { method: "POST", path: "/webhooks/media/not-the-secret", headers: json, body: replay },
      ],
    },
    "Telegram webhook": {
      large: [
        { method: "POST", path: "/telegram", headers: tg, body: big },
        { method: "POST", path: "/telegram", headers: tg, body: big, chunked: true },
        { method: "POST", path: "/telegram", headers: json, body: big },
      ],
      others: [
        { method: "POST", path: "/telegram", headers: tg, body: small("{}") },
        { method: "POST", path: "/telegram", headers: tg, body: small("{not json") },
        { method: "POST", path: "/telegram", headers: json, body: small('{"update_id":1}') },
        { method: "GET", path: "/telegram" },
      ],
    },
    "file proxy": {
      large: [
        { method: "GET", path: "/files/not-a-token", body: big },
        { method: "POST", path: "/files/not-a-token", body: big, chunked: true },
      ],
      others: [
        { method: "GET", path: "/files/not-a-token" },
        { method: "HEAD", path: "/files/not-a-token" },
        { method: "GET", path: "/files/" },
        { method: "GET", path: "/healthz" },
      ],
    },
  };

  const result: Record<string, { runs: { resets: number; statuses: Record<number, number> }[] }> = {};
  for (const [name, { large, others }] of Object.entries(routes)) {
    result[name] = { runs: [] };
    for (let run = 0; run < runs; run++) {
      const outcome = await fire(h.config.publicUrl, mix(requests, large, others));
      result[name].runs.push({ resets: outcome.errors.length, statuses: outcome.statuses });
    }
  }
  report("resets", {
    requests_per_run: requests,
    concurrency: 12,
    large_share: 0.25,
    large_bytes: big.length,
    routes: result,
    total_resets: Object.values(result)
      .flatMap((r) => r.runs)
      .reduce((sum, r) => sum + r.resets, 0),
  });
} finally {
  await h.stop();
}
process.exit(0);
