import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * How `npm start` runs the bundle: `[NAME=value …] node <flags> dist/main.js`.
 * Benches run the bot the same way, so what ships is what is measured.
 */
export function startCommand(): { env: Record<string, string>; flags: string[] } {
  const pkg = z
    .object({ scripts: z.object({ start: z.string() }) })
    .parse(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")));
  const words = pkg.scripts.start.split(/\s+/);
  const unexpected = () =>
    new Error(`npm start is not "[NAME=value …] node <flags> dist/main.js": ${pkg.scripts.start}`);
  const node = words.indexOf("node");
  if (node < 0 || words.at(-1) !== "dist/main.js") throw unexpected();
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const [, name, value] = /^([A-Z_]+)=(\S*)$/.exec(word) ?? [];
    if (name === undefined || value === undefined) throw unexpected();
    env[name] = value;
  }
  return { env, flags: words.slice(node + 1, -1) };
}
