import type { MediaStore } from "../../../platform/storage/stored-file";
import type { GenerationParams, InputRef } from "../params";
import type { Generation } from "../types";

export interface InputLinkDeps {
  store: Pick<MediaStore, "kind" | "findInput" | "keepInput" | "link">;
  /** our file proxy's signed link to a user's Telegram upload */
  proxyLink(fileId: string): string;
  /** our file proxy's signed link to a generation's kept input `source` */
  keptLink(generationId: string): string;
  /** streams a user's Telegram file into `destination` (`saveTelegramFile`) */
  telegramFile(fileId: string, destination: string): Promise<void>;
  /** how long the service may take to fetch an input */
  linkSeconds: number;
}

/** The files a generation sends the service, in the order its request names them. */
export function inputsOf(p: GenerationParams): InputRef[] {
  if (p.operation === "edit") return p.images;
  if (p.operation === "dub") return [p.source];
  return [];
}

/**
 * Where the service downloads a generation's inputs. A link of the user's own
 * goes as it is. With a bucket, a Telegram upload is kept in it first and the
 * service gets a presigned link there (no byte passes through our web role);
 * with a local store, our file proxy streams it from Telegram.
 */
export function inputLinks(deps: InputLinkDeps) {
  const direct = async (path: string) => {
    const link = await deps.store.link(path, deps.linkSeconds);
    if (!link) throw new Error(`the store gave no link to ${path}`);
    return link;
  };
  return {
    async forInput(g: Generation, ref: InputRef, index: number): Promise<string> {
      if (ref.kind === "url") return ref.url;
      if (deps.store.kind === "local") return deps.proxyLink(ref.fileId);
      const name = `input-${index}`;
      const kept =
        (await deps.store.findInput(g.id, name)) ??
        (await deps.store.keepInput(
          g.id,
          async (destination) => {
            await deps.telegramFile(ref.fileId, destination);
            // a photo carries no type: Telegram keeps every photo as a JPEG
            return { contentType: ref.mimeType ?? "image/jpeg", url: `file:///${ref.fileName ?? "input"}` };
          },
          name,
        ));
      return direct(kept.path);
    },
    /** the dub's source as we kept it */
    async forKept(generationId: string): Promise<string> {
      if (deps.store.kind === "local") return deps.keptLink(generationId);
      const kept = await deps.store.findInput(generationId);
      if (!kept) throw new Error(`the kept source of ${generationId} is gone`);
      return direct(kept.path);
    },
    /** a file of the store the service downloads (a part of a dub), for `seconds` */
    async forFile(path: string, seconds: number, proxyLink: (path: string) => string): Promise<string> {
      return (await deps.store.link(path, seconds)) ?? proxyLink(path);
    },
  };
}
