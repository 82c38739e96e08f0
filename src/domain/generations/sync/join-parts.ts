import { faultPoint } from "../../../platform/lib/fault-point";
import type { MediaStore, StoredFile } from "../../../platform/storage/stored-file";
import type { DubPart } from "../parts";
import type { Generation } from "../types";

export interface JoinDeps {
  store: Pick<MediaStore, "copy" | "outputsOf" | "findInput" | "keepOutput" | "withLocalFiles">;
  /** whether the kept source has a picture (a video's dub is the original picture under the dubbed sound) */
  hasPicture(path: string): Promise<boolean>;
  /** joins the dubbed parts' sound, in order, into `output` (`joinSound`), under `picture` when given */
  joinSound(parts: readonly string[], output: string, picture?: string): Promise<void>;
  /** our signed link to a stored result */
  outputUrl(path: string): string;
}

/**
 * The dubbed parts, copied into our storage beside the result, joined in order
 * into the generation's one output (slot 0): MP3 for audio, the original video
 * with the dubbed sound for video. Run again after a crash, it finds what is
 * already there: the parts' copies and a complete result.
 */
export function partsJoiner(deps: JoinDeps) {
  return async function join(
    g: Generation,
    parts: readonly DubPart[],
  ): Promise<{ url: string; video: boolean }> {
    const source = await deps.store.findInput(g.id);
    if (!source) throw new Error(`the kept source of ${g.id} is gone`);
    // ffmpeg reads files of this host's disk: the kept ones, or copies out of a bucket (the source once)
    return deps.store.withLocalFiles([source], async ([sourcePath]) => {
      const video = await deps.hasPicture(sourcePath!);
      const done = (await deps.store.outputsOf(g.id)).find((f) =>
        f.path.endsWith(video ? "/0.mp4" : "/0.mp3"),
      );
      if (done) return { url: deps.outputUrl(done.path), video };
      const dubbed: StoredFile[] = [];
      for (const part of [...parts].sort((a, b) => a.index - b.index)) {
        if (!part.outputUrl) throw new Error(`part ${part.index + 1} of ${g.id} has no output`);
        dubbed.push(await deps.store.copy(`${g.id}/parts`, part.index, part.outputUrl));
      }
      const joined = await deps.store.withLocalFiles(dubbed, (paths) =>
        deps.store.keepOutput(g.id, 0, video ? "mp4" : "mp3", (output) =>
          deps.joinSound(paths, output, video ? sourcePath : undefined),
        ),
      );
      faultPoint("dub:joined");
      return { url: deps.outputUrl(joined.path), video };
    });
  };
}
