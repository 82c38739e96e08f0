import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { build } from "esbuild";
import { ensurePage } from "../sandbox/playground/bundle";
import { ensureMiniAppPage } from "../src/features/miniapp/bundle";

/**
 * `npm run build`: the bot bundled into dist/ (esbuild; dependencies stay in
 * node_modules), then the playground page into dist/playground and the Mini App's
 * page into dist/miniapp (Vite) unless they are current. Each file is written
 * beside its place and renamed into it, so a process running dist/main.js while
 * another builds never loads half a file.
 */
const result = await build({
  // the operators' names (docs/operations.md, the alerts) stay short: dist/db/migrate-cli.js
  entryPoints: [
    { in: "src/main.ts", out: "main" },
    { in: "src/platform/db/migrate-cli.ts", out: "db/migrate-cli" },
    { in: "src/domain/credits/audit-cli.ts", out: "credits/audit-cli" },
  ],
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  packages: "external",
  splitting: true,
  sourcemap: true,
  logLevel: "warning",
  write: false,
});
await Promise.all(
  result.outputFiles.map(async (file) => {
    await mkdir(dirname(file.path), { recursive: true });
    const staging = `${file.path}.build-${process.pid}`;
    await writeFile(staging, file.contents);
    await rename(staging, file.path);
  }),
);

const page = await ensurePage();
console.log(page.built ? `playground page built into ${page.dir}` : `playground page current in ${page.dir}`);
const miniApp = await ensureMiniAppPage();
console.log(
  miniApp.built ? `Mini App page built into ${miniApp.dir}` : `Mini App page current in ${miniApp.dir}`,
);
