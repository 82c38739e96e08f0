/**
 * Breaks one behaviour at a time in a scratch copy of the repository and runs
 * the tests that should notice, with vitest's JSON reporter. Prints a JSON list of
 * { behaviour, testFiles, result, failing } — `result: "caught"` (at least one
 * named test failed) is what we want; "missed" means every test passed, and
 * "inconclusive" means no verdict (vitest did not start, timed out, was killed,
 * or exited non-zero without a failed test).
 *
 *   npm run break-check                 every behaviour
 *   npm run break-check -- --only topic  behaviours whose name contains "topic"
 *   npm run break-check -- --write       also writes docs/break-check.json
 *                                       (with --only, only those entries change)
 *
 * Not part of CI: it runs the named test files once per behaviour (minutes).
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

interface Breakage {
  behaviour: string;
  file: string;
  /** text that must occur exactly once in `file` */
  find: string;
  replace: string;
  testFiles: string[];
}

const breakages: Breakage[] = [
  {
    behaviour: "file proxy path guard",
    file: "src/platform/storage/media-store.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to find, not a template
    find: 'if (clean.startsWith("..") || clean.startsWith(sep)) throw new Error(`path escapes the store: ${path}`);',
    replace: "",
    testFiles: ["test/runtime/operations-endpoints.e2e.test.ts"],
  },
  {
    behaviour: "generations.create enqueues submit",
    file: "src/domain/generations/create.ts",
    find: "await queues.submit(id).catch(",
    replace: "await Promise.resolve(id).catch(",
    testFiles: ["test/domain/generations/service.integration.test.ts", "test/runtime/operations.e2e.test.ts"],
  },
  {
    behaviour: "give-up after 12 delivery attempts (the check)",
    file: "src/domain/generations/deliver/deliver-step.ts",
    find: "if (g.deliveryAttempts >= deps.maxDeliveryAttempts) {",
    replace: "if (false) {",
    testFiles: ["test/domain/generations/deliver-step.integration.test.ts"],
  },
  {
    behaviour: "give-up after 12 delivery attempts (the number)",
    file: "src/runtime/settings.ts",
    find: "maxDeliveryAttempts: 12,",
    replace: "maxDeliveryAttempts: 20,",
    testFiles: ["test/domain/generations/deliver-step.integration.test.ts"],
  },
  {
    behaviour: "closed forum topic falls back to the chat",
    file: "src/domain/generations/deliver/deliver-step.ts",
    find: "await generations.forgetThread(id);",
    replace: "",
    testFiles: ["test/domain/generations/deliver-step.integration.test.ts"],
  },
  {
    behaviour: "user marked blocked on a 403 during delivery",
    file: "src/domain/generations/deliver/deliver-step.ts",
    find: 'if (isTelegramFailure(err, "blocked")) await deps.markBlocked(g.userId);\n      await generations.finishDelivery',
    replace: "await generations.finishDelivery",
    testFiles: ["test/domain/generations/deliver-step.integration.test.ts"],
  },
  {
    behaviour: "poll backoff factor",
    file: "src/domain/generations/sync/sync-step.ts",
    find: "1.5 ** Math.min(polls, 20)",
    replace: "2 ** Math.min(polls, 20)",
    testFiles: ["test/domain/generations/steps.integration.test.ts"],
  },
  {
    behaviour: "20-minute video deadline",
    file: "src/domain/generations/states.ts",
    find: "video: 20 * minute",
    replace: "video: 30 * minute",
    testFiles: ["test/domain/generations/service.integration.test.ts"],
  },
  {
    behaviour: "admin alert sent to the admins",
    file: "src/platform/telegram/operator-alert.ts",
    find: "for (const admin of deps.adminIds) {",
    replace: "for (const admin of [] as number[]) {",
    testFiles: ["test/runtime/operator-paths.e2e.test.ts"],
  },
  {
    behaviour: "admin alert once per pause",
    file: "src/platform/telegram/operator-alert.ts",
    find: 'if (first !== "OK") return;',
    replace: "",
    testFiles: ["test/platform/telegram/operator-alert.integration.test.ts"],
  },
  {
    behaviour: "provider webhook signature checked at the route",
    file: "src/runtime/http/media-webhook.ts",
    find: "{ signingSecret: deps.providerSigningSecret, now: deps.now }",
    replace: "{ signingSecret: undefined, now: deps.now }",
    testFiles: ["test/runtime/operator-paths.e2e.test.ts"],
  },
  {
    behaviour: "orphan recorded for a second task of one gid",
    file: "src/domain/generations/sync/webhook-hint.ts",
    find: "return confirmOrphan(taskId, g.id, deps);",
    replace: 'return "orphan-not-confirmed";',
    testFiles: ["test/runtime/media-webhook-abuse.e2e.test.ts"],
  },
  {
    behaviour: "/readyz false when Redis or Postgres is down",
    file: "src/runtime/http/health.ts",
    find: "ready ? 200 : 503",
    replace: "200",
    testFiles: ["test/runtime/operator-paths.e2e.test.ts"],
  },
  {
    behaviour: "deliver queue paused on a Telegram 429",
    file: "src/domain/generations/deliver/deliver-step.ts",
    find: 'return { kind: "pause", outcome: outcome.kind, realMs: outcome.retryAfterSeconds * 1000 };',
    replace: 'return { kind: "done", outcome: outcome.kind };',
    testFiles: ["test/runtime/operator-paths.e2e.test.ts"],
  },
  {
    behaviour: "give-up when submit retries run out",
    file: "src/domain/generations/submit/submit-step.ts",
    find: 'if (outcome.kind === "retry" && attempt.final)',
    replace: 'if (outcome.kind === "retry" && false)',
    testFiles: ["test/domain/generations/steps.integration.test.ts"],
  },
  {
    behaviour: "the 'generating' status edit",
    file: "src/runtime/worker-role.ts",
    find: "onAccepted: (g) => showStatus(api, generations, g, t),",
    replace: "onAccepted: async () => {},",
    testFiles: ["test/runtime/operator-paths.e2e.test.ts"],
  },
  {
    behaviour: "the conversation's spending key",
    file: "src/features/requests/confirm-request.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to find, not a template
    find: "key: `conv-${who.chatId}-${panelId}`,",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to put, not a template
    replace: "key: `conv-${who.chatId}-${panelId}-${Math.random()}`,",
    testFiles: ["test/bot/bot-crash.e2e.test.ts"],
  },
  {
    behaviour: "adoption by gid",
    file: "src/domain/generations/sync/webhook-hint.ts",
    find: "const adopt = !g.taskId && taskId ? taskId : undefined;",
    replace: "const adopt = undefined;",
    testFiles: ["test/domain/generations/crash.e2e.test.ts"],
  },
  // second wave (issue 29): money, referrals, permissions, the ban, order and readiness
  {
    behaviour: "second wave: a purchase granted once per charge",
    file: "src/features/payments/checkout.ts",
    find: "telegramChargeId: paid.telegram_payment_charge_id,",
    // recorded per delivery of the update instead of per charge
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to put, not a template
    replace: "telegramChargeId: `${paid.telegram_payment_charge_id}:${ctx.update.update_id}`,",
    testFiles: ["test/features/payments/payments.e2e.test.ts"],
  },
  {
    behaviour: "second wave: a refund taken once",
    file: "src/features/payments/store.ts",
    find: 'if (payment.state === "refunded") return { kind: "already", payment };',
    replace: "",
    testFiles: ["test/features/payments/refunds.e2e.test.ts"],
  },
  {
    // in the bot the banned-users stop refuses first; this is the checkout's own refusal
    behaviour: "second wave: checkout refused for a banned buyer",
    file: "src/features/payments/checkout.ts",
    find: 'const refusal = state?.banned ? "banned-notice" : checkoutRefusal(query, deps.packs);',
    replace: "const refusal = checkoutRefusal(query, deps.packs);",
    testFiles: ["test/platform/config/credit-packs.unit.test.ts"],
  },
  {
    behaviour: "second wave: checkout refused for a changed price",
    file: "src/features/payments/checkout.ts",
    find: 'if (pack.stars !== invoice.stars || packTotal(pack) !== invoice.credits) return "buy-pack-changed";',
    replace: "",
    testFiles: [
      "test/platform/config/credit-packs.unit.test.ts",
      "test/features/payments/payments.e2e.test.ts",
    ],
  },
  {
    behaviour: "second wave: the referral bonus once",
    file: "src/features/referrals/hooks.ts",
    find: ".where(and(eq(referrals.referredId, payment.userId), isNull(referrals.rewardedAt)))",
    replace: ".where(eq(referrals.referredId, payment.userId))",
    testFiles: ["test/features/referrals/referrals.e2e.test.ts"],
  },
  {
    behaviour: "second wave: one's own referral link refused",
    file: "src/features/referrals/rules.ts",
    find: 'if (f.referrerId === f.referredId) return "self";',
    replace: "",
    testFiles: [
      "test/features/referrals/referrals.unit.test.ts",
      "test/features/referrals/referrals.e2e.test.ts",
    ],
  },
  {
    behaviour: "second wave: an inline offer confirmed only by its placer",
    file: "src/features/inline/confirm.ts",
    find: "if (offer.userId !== press.from.id) {",
    replace: "if (false) {",
    testFiles: ["test/features/inline/inline.e2e.test.ts"],
  },
  {
    behaviour: "second wave: group settings opened only by the group's admins",
    file: "src/features/groups/settings-feature.ts",
    find: "  if (!(await senderIsGroupAdmin(ctx, deps.admins))) {\n    ctx.logger.info({ chatId: ctx.chat.id",
    // refuses only bots
    replace: "  if (ctx.from?.is_bot) {\n    ctx.logger.info({ chatId: ctx.chat.id",
    testFiles: ["test/features/groups/group-settings.e2e.test.ts"],
  },
  {
    behaviour: "second wave: group settings changed only by the group's admins (the buttons)",
    file: "src/features/groups/settings-feature.ts",
    find: "    if (!(await senderIsGroupAdmin(ctx, deps.admins))) {\n      ctx.logger.info({ chatId, userId",
    replace: "    if (false) {\n      ctx.logger.info({ chatId, userId",
    testFiles: ["test/features/groups/group-settings.e2e.test.ts"],
  },
  {
    behaviour: "second wave: admin commands only for admins",
    file: "src/features/admin/admin-only.ts",
    find: "outer.filter((ctx) => ctx.from !== undefined && adminIds.includes(ctx.from.id))",
    replace: "outer.filter((ctx) => ctx.from !== undefined)",
    testFiles: ["test/features/admin/admin-commands.e2e.test.ts"],
  },
  {
    behaviour: "second wave: a banned user stopped",
    file: "src/bot/middleware/banned.ts",
    // the row registration writes later in the chain, not the one the claim read: never set here
    find: "const state = ctx.knownUser;",
    replace: "const state = ctx.user;",
    testFiles: ["test/features/admin/admin-commands.e2e.test.ts"],
  },
  {
    behaviour: "second wave: a 403 during a broadcast marks the user blocked",
    file: "src/features/broadcasts/send-step.ts",
    find: "await deps.markBlocked(userId);",
    replace: "",
    testFiles: ["test/features/broadcasts/broadcast.e2e.test.ts"],
  },
  {
    // the claim in Postgres: an update is leased only when no earlier one of its chat or user is pending or in hand
    behaviour: "second wave: one chat's updates in order across processes",
    file: "drizzle/0006_lean_update_claims.sql",
    find: "blocked := cardinality(ks) > 0 AND (",
    replace: "blocked := false AND (",
    testFiles: ["test/bot/update-journal.integration.test.ts", "test/runtime/scale-out.e2e.test.ts"],
  },
  {
    behaviour: "second wave: readiness false on queue lag",
    file: "src/runtime/http/health.ts",
    find: "if (waiting > (deps.maxQueueLag ?? 1000)) ready = false;",
    replace: "",
    testFiles: ["test/runtime/readiness.integration.test.ts"],
  },
  // the playground page, driven in Chromium: each feature a newcomer meets in the first hour
  ...(
    [
      [
        "playground: an invoice's Pay",
        "sandbox/playground/web/message.tsx",
        "onClick={() => actions.pay(view)}",
        "onClick={() => undefined}",
      ],
      [
        "playground: the inline results panel",
        "sandbox/playground/web/app.tsx",
        "{inline ? (",
        "{false && inline ? (",
      ],
      ["playground: the group's owner", "sandbox/playground/cast.ts", "    creator: owner.user,\n", ""],
      [
        "playground: right-to-left bubbles",
        "sandbox/playground/web/message.tsx",
        '<div class="text" dir="auto">',
        '<div class="text">',
      ],
      [
        "playground: one set of buttons per result",
        "src/domain/generations/status.ts",
        "await api.editMessageText(g.chatId, g.statusMessageId, text);",
        'await api.editMessageText(g.chatId, g.statusMessageId, text, g.state === "delivered" ? { reply_markup: (await import("./result-keyboard")).resultKeyboard(g, t) } : {});',
      ],
      [
        "playground: the chat at its end",
        "sandbox/playground/web/message-list.tsx",
        "      if (!stick.current) return;",
        "      return;",
      ],
      [
        "playground: labels wrap between words",
        "sandbox/playground/web/style.css",
        "  overflow-wrap: normal;\n  word-break: normal;\n",
        "",
      ],
    ] as const
  ).map(([behaviour, file, find, replace]) => ({
    behaviour,
    file,
    find,
    replace,
    testFiles: ["test/sandbox/playground/playground.browser.test.ts"],
  })),
  {
    behaviour: "outages: an update that meets Telegram away is kept until it answers",
    file: "src/bot/update-journal.ts",
    find: "if (!telegramReturn || !isTelegramAway(err)) {",
    replace: "if (!telegramReturn || !isTelegramAway(err) || telegramReturn) {",
    testFiles: ["test/bot/bot-api-outage.e2e.test.ts"],
  },
  {
    behaviour: "outages: a result waits for Telegram, its attempts unspent",
    file: "src/domain/generations/deliver/deliver-step.ts",
    find: '    if (isTelegramAway(err) && !(await deps.link.answers())) return { kind: "away" };\n',
    replace: "",
    testFiles: ["test/bot/bot-api-outage.e2e.test.ts"],
  },
  {
    behaviour: "outages: getUpdates tried every second however long it fails",
    file: "src/bot/polling.ts",
    find: "      retryInterval: retryEveryMs,\n",
    replace: "",
    testFiles: ["test/bot/polling-gap.unit.test.ts"],
  },
  {
    behaviour: "outages: a submit cut by a crash is adopted within 30 s",
    file: "src/runtime/settings.ts",
    find: "adoptionGraceMs: 30_000,",
    replace: "adoptionGraceMs: 120_000,",
    testFiles: ["test/domain/generations/crash.e2e.test.ts"],
  },
  {
    behaviour: "offers: a pasted link is read for what it points at",
    file: "src/features/requests/offers-without-command.ts",
    find: 'if (link.kind === "image")',
    replace: 'if (link.kind === ("never" as string))',
    testFiles: ["test/features/requests/sent-offers.e2e.test.ts"],
  },
  {
    behaviour: "offers: a text the client split gets one answer",
    file: "src/features/requests/offers-without-command.ts",
    find: "if (head && date - head.date <= splitGapSeconds) return answerRest(ctx, head, text);",
    replace: "if (head && date - head.date < -splitGapSeconds) return answerRest(ctx, head, text);",
    testFiles: ["test/features/requests/sent-offers.e2e.test.ts"],
  },
  {
    behaviour: "estimates: a dub in parts counts down at its own parts' pace",
    file: "src/domain/generations/usual-durations.ts",
    find: "return perMinute * minutesLeft - (now - lastDone) / 1000;",
    replace: "return perMinute * minutesLeft * 3 - (now - lastDone) / 1000;",
    testFiles: [
      "test/domain/generations/long-dubs.e2e.test.ts",
      "test/domain/generations/usual-durations.integration.test.ts",
    ],
  },
];

const root = resolve(import.meta.dirname, "..");
const skipped = new Set(["node_modules", ".git", "test-results.json", ".stryker-tmp", "reports"]);

async function scratchCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "msb-break-"));
  await cp(root, dir, {
    recursive: true,
    filter: (src) => {
      const rel = relative(root, src);
      return rel === "" || !skipped.has(rel.split("/")[0]!);
    },
  });
  await symlink(join(root, "node_modules"), join(dir, "node_modules"));
  return dir;
}

type Verdict = "caught" | "missed" | "inconclusive";

interface Result {
  behaviour: string;
  testFiles: string[];
  /** caught: at least one named test failed; missed: every test passed; inconclusive: no verdict */
  result: Verdict;
  /** "<file> > <describe> > <test>" for each failed test */
  failing: string[];
  /** why the run is inconclusive */
  note?: string;
}

interface VitestJson {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { ancestorTitles: string[]; title: string; status: string }[];
  }[];
}

const runTimeoutMs = 15 * 60_000;

/** Runs vitest in its own process group so a timeout can end the whole tree. */
function runVitest(cwd: string, testFiles: string[], outputFile: string) {
  return new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    error?: Error;
    timedOut: boolean;
  }>((done) => {
    const child = spawn(
      process.execPath,
      [
        join(cwd, "node_modules/vitest/vitest.mjs"),
        "run",
        "--reporter=json",
        `--outputFile=${outputFile}`,
        ...testFiles,
      ],
      {
        cwd,
        detached: true,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, CI: "", NO_COLOR: "1", FORCE_COLOR: "0" },
      },
    );
    let timedOut = false;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, runTimeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      done({ code: null, signal: null, error, timedOut });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 && code !== 1 && stderr) process.stderr.write(stderr);
      done({ code, signal, timedOut });
    });
  });
}

async function check(b: Breakage): Promise<Result> {
  const dir = await scratchCopy();
  const outputFile = join(dir, "break-check-results.json");
  const verdict = (result: Verdict, failing: string[], note?: string): Result => ({
    behaviour: b.behaviour,
    testFiles: b.testFiles,
    result,
    failing,
    ...(note ? { note } : {}),
  });
  try {
    const path = join(dir, b.file);
    const text = await readFile(path, "utf8");
    const count = text.split(b.find).length - 1;
    if (count !== 1) throw new Error(`${b.behaviour}: expected the text once in ${b.file}, found ${count}`);
    await writeFile(path, text.replace(b.find, b.replace));
    const run = await runVitest(dir, b.testFiles, outputFile);
    if (run.error) return verdict("inconclusive", [], `vitest did not start: ${run.error.message}`);
    if (run.timedOut) return verdict("inconclusive", [], `timed out after ${runTimeoutMs / 60_000} minutes`);
    if (run.signal) return verdict("inconclusive", [], `vitest ended by ${run.signal}`);
    let report: VitestJson;
    try {
      report = JSON.parse(await readFile(outputFile, "utf8")) as VitestJson;
    } catch (err) {
      return verdict("inconclusive", [], `no JSON report (exit ${run.code}): ${(err as Error).message}`);
    }
    const failing: string[] = [];
    const brokenFiles: string[] = [];
    for (const file of report.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failed)
        failing.push([relative(dir, file.name), ...t.ancestorTitles, t.title].join(" > "));
      if (file.status === "failed" && failed.length === 0) brokenFiles.push(relative(dir, file.name));
    }
    if (failing.length > 0) return verdict("caught", failing);
    if (run.code === 0) return verdict("missed", []);
    const where = brokenFiles.length > 0 ? ` (file-level failure in ${brokenFiles.join(", ")})` : "";
    return verdict("inconclusive", [], `vitest exited ${run.code} with no failed test${where}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const results: Result[] = [];
for (const b of breakages.filter((x) => !only || x.behaviour.includes(only))) {
  const r = await check(b);
  const label = { caught: "caught      ", missed: "MISSED      ", inconclusive: "INCONCLUSIVE" }[r.result];
  process.stderr.write(`${label} ${r.behaviour}${r.note ? ` (${r.note})` : ""}\n`);
  results.push(r);
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
if (args.includes("--write")) {
  // With --only, the other behaviours keep their previous entries.
  const target = join(root, "docs/break-check.json");
  const previous: Result[] = only ? JSON.parse(await readFile(target, "utf8").catch(() => "[]")) : [];
  const byName = new Map([...previous, ...results].map((r) => [r.behaviour, r]));
  const merged = breakages.flatMap((b) => byName.get(b.behaviour) ?? []);
  await writeFile(target, `${JSON.stringify(merged, null, 2)}\n`);
}
process.exit(results.every((r) => r.result === "caught") ? 0 : 1);
