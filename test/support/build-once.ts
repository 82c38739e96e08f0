import { execFileSync } from "node:child_process";

/** vitest's global setup: `npm run build` (the bundle in dist/ and the playground page), once per run. */
export default function buildOnce(): void {
  execFileSync("npm", ["run", "-s", "build"], { stdio: ["ignore", "ignore", "inherit"] });
}
