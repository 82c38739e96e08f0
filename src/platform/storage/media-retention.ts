import { inputsArea, type MediaStore } from "./stored-file";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** folders looked up in one query */
const batch = 500;

export interface MediaRetentionDeps {
  store: Pick<MediaStore, "folders" | "removeFolder" | "abortStaleUploads">;
  /** of these generation ids, those at rest since before the cutoff */
  restingSince(ids: string[], cutoff: Date): Promise<string[]>;
  now(): number;
  retentionDays: number;
}

/**
 * Deletes our copies of results older than the retention (a result's folder is
 * named by its generation). A generation still on its way to the chat keeps its
 * files whatever their age; a folder that names no generation is left alone.
 * Links to a removed file answer 410 (the file proxy), as they expire with it.
 * The inputs we kept for the service (`inputs/<generation id>`) go the same way,
 * and a bucket's uploads a crash left unfinished a day ago are aborted.
 */
export async function removeExpiredMedia(deps: MediaRetentionDeps): Promise<number> {
  const cutoff = new Date(deps.now() - deps.retentionDays * 24 * 3_600_000);
  let removed = 0;
  for (const area of [undefined, inputsArea]) {
    const candidates = (await deps.store.folders(area)).filter((f) => uuid.test(f));
    for (let i = 0; i < candidates.length; i += batch) {
      for (const id of await deps.restingSince(candidates.slice(i, i + batch), cutoff)) {
        await deps.store.removeFolder(area ? `${area}/${id}` : id);
        removed++;
      }
    }
  }
  // a live upload takes minutes: one begun a day ago was cut off (a crash) and would never end
  await deps.store.abortStaleUploads(new Date(deps.now() - 24 * 3_600_000));
  return removed;
}
