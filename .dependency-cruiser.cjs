// Import rules of docs/architecture.md ("Tiers"), checked in CI (`npm run check:deps`).
// src/ holds the tiers, each importing only those below it:
//   runtime/ → features/ → bot/ (the kernel) → domain/ → platform/
// and sandbox/ (the stand-ins) sits beside src/, reached only by sandbox start-up.
// A rule that fails names the two files and the rule.
const features = "src/features/([^/]+)/";

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
      name: "no-folder-circular",
      comment:
        "No circles between folders either (credits/ → generations/ → credits/ is one, though no two modules form a circle).",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "tier-platform",
      comment:
        "platform/ (config, database, queue, Telegram helpers, storage, the media service's client, links, ffmpeg, i18n, metrics, lib) knows nothing of the product: it imports only platform/.",
      severity: "error",
      from: { path: "^src/platform/" },
      to: { path: "^(src|sandbox)/", pathNot: "^src/platform/" },
    },
    {
      name: "tier-domain",
      comment:
        "domain/ (generations and its stages, credits, pricing, users) holds the product's rules and money: it imports domain/ and platform/ only, never the kernel, a feature or the runtime.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^(src|sandbox)/", pathNot: "^src/(domain|platform)/" },
    },
    {
      name: "tier-kernel",
      comment:
        "The kernel (bot/: createBot, context, middleware, update journal, command menus, the conversation toolkit) knows what every update shares: platform/ and users, no feature, no generation, no money.",
      severity: "error",
      from: { path: "^src/bot/" },
      to: { path: "^(src|sandbox)/", pathNot: "^src/(bot|platform|domain/users)/" },
    },
    {
      name: "tier-features",
      comment: "A feature builds on the kernel, the domain and the platform; the runtime folds the features, never the other way.",
      severity: "error",
      from: { path: "^src/features/" },
      to: { path: "^(src/(runtime/|main\\.ts)|sandbox/)" },
    },
    {
      name: "feature-through-its-public-module",
      comment: "One feature reaches another through that feature's index.ts only.",
      severity: "error",
      from: { path: `^${features}` },
      to: { path: `^${features}`, pathNot: ["^src/features/$1/", "^src/features/[^/]+/index\\.ts$"] },
    },
    {
      name: "feature-through-its-public-module-from-outside",
      comment: "Code outside features/ (the runtime, sandbox start-up) imports a feature through its index.ts only.",
      severity: "error",
      from: { path: "^(src|sandbox)/", pathNot: "^src/features/" },
      to: { path: `^${features}`, pathNot: "^src/features/[^/]+/index\\.ts$" },
    },
    {
      name: "sandbox-only-in-sandbox-mode",
      comment:
        "Only sandbox start-up reaches the stand-ins (the playground and the media service simulator): main.ts, and runtime/media-service.ts, which loads the simulator only in sandbox mode.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/main\\.ts$", "^src/runtime/media-service\\.ts$"] },
      to: { path: "^sandbox/" },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^sandbox/playground/web/" },
  },
};
