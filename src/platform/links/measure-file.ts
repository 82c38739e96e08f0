/**
 * A kept media file's length and whether it carries a picture, read in
 * process (music-metadata); undefined when it cannot be read as audio or video.
 */
export async function measureMediaFile(
  path: string,
): Promise<{ seconds: number; hasVideo: boolean } | undefined> {
  try {
    const { parseFile } = await import("music-metadata");
    const meta = await parseFile(path, { duration: true, skipCovers: true });
    const d = meta.format.duration;
    return d !== undefined && Number.isFinite(d) && d > 0
      ? { seconds: d, hasVideo: meta.format.hasVideo === true }
      : undefined;
  } catch {
    return undefined;
  }
}
