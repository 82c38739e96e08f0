// Import rules of docs/architecture.md ("The folders and their rules"), checked in CI
// (`npm run check:deps`). A rule that fails names the two files and the rule.
const features = "(account|admin|inline|groups|payments|referrals|broadcasts|preferences|requests|miniapp)";
/** What every update shares, and all the kernel (bot/) may know of: no feature, no stage, no money. */
const kernelMayImport = "^src/(bot|i18n|telegram|users|db|lib)/|^src/config\\.ts$";
const stages = "generations/(submit|sync|deliver)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import circles, type-only imports included: a module and what it needs form a tree.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "queue-knows-no-stage",
      comment: "queue/ runs the jobs it is given (BullMQ plumbing): it imports no stage and no feature.",
      severity: "error",
      from: { path: "^src/queue/" },
      to: { path: [`^src/${stages}/`, `^src/${features}/`, "^src/generations/"] },
    },
    {
      name: "kernel-imports-no-feature",
      comment:
        "The kernel (bot/: createBot, context, middleware, update journal, intake, command menus, the conversation toolkit) knows only what every update shares: config, db, users, telegram, i18n, lib. Features are given to createBot in one list by the web role.",
      severity: "error",
      from: { path: "^src/bot/" },
      to: { path: "^src/", pathNot: kernelMayImport },
    },
    {
      name: "words-and-rules-not-from-the-kernel",
      comment:
        "Stages and the domain (generations/, credits/, media/, pricing/, storage/) take their words from i18n/ and their rules from generations/ or media/, never from bot/.",
      severity: "error",
      from: { path: "^src/(generations|credits|media|pricing|storage)/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "stage-imports-no-feature",
      comment: "A stage of a generation (submit, sync, deliver) works for every feature and imports none.",
      severity: "error",
      from: { path: `^src/${stages}/` },
      to: { path: `^src/${features}/` },
    },
    {
      name: "feature-through-its-public-module",
      comment:
        "A feature folder is a unit: code outside it (the bot, the runtime, other features) imports it through its index.ts only.",
      severity: "error",
      from: { path: "^src/([^/]+)" },
      to: { path: `^src/${features}/`, pathNot: ["^src/$1/", `^src/${features}/index\\.ts$`] },
    },
    {
      name: "sandbox-only",
      comment:
        "Only sandbox start-up reaches the stand-ins (the playground and the media service simulator): main.ts, and media-service.ts, which loads the simulator only in sandbox mode.",
      severity: "error",
      from: {
        path: "^src/",
        pathNot: ["^src/playground/", "^src/simulator/", "^src/main\\.ts$", "^src/runtime/media-service\\.ts$"],
      },
      to: { path: ["^src/playground/", "^src/simulator/"] },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/playground/web/" },
  },
};
