import { execFileSync } from "node:child_process";

/** vitest's global setup: `npm run build` (the bundle in dist/, the playground page and the Mini App page), once per run. */
export default function buildOnce(): void {
  execFileSync("npm", ["run", "-s", "build"], { stdio: ["ignore", "ignore", "inherit"] });
}
