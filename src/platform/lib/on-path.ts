import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether an executable of this name is in one of the PATH's folders. */
export function onPath(binary: string, path = process.env.PATH ?? ""): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, binary), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}
