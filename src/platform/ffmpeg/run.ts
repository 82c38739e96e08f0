import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** ffmpeg ended badly, or could not be started (not installed). */
export class FfmpegError extends Error {
  override name = "FfmpegError";
  constructor(
    message: string,
    /** the program is not on this machine: nothing a retry can change */
    readonly missing = false,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** the program: "ffmpeg" or "ffprobe" (found on PATH) unless a path is given */
  program: string;
  args: readonly string[];
  /** each line ffmpeg writes to stderr, as it comes (its log and filter reports) */
  onLine?(line: string): void;
  /** collects stdout: small answers only */
  stdout?: boolean;
  timeoutMs?: number;
  /** stops it (killed); the promise settles once the process is gone */
  signal?: AbortSignal;
}

/** Lines of stderr kept for the error message: ffmpeg says what went wrong last. */
const tailLines = 8;

/**
 * Runs ffmpeg with an argument list (no shell), reading its stderr line by
 * line as it comes, so a long run costs no memory; resolves with stdout when
 * asked for, rejects with the last lines of stderr. A timeout or an abort
 * kills it and settles once it is gone.
 */
export function runFfmpeg(options: RunOptions): Promise<string> {
  const stops = [options.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined];
  const stop = AbortSignal.any(stops.filter((s): s is AbortSignal => s !== undefined));
  return new Promise((resolve, reject) => {
    const child = spawn(options.program, options.args, {
      stdio: ["ignore", options.stdout ? "pipe" : "ignore", "pipe"],
      signal: stop,
      killSignal: "SIGKILL",
    });
    const tail: string[] = [];
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    createInterface({ input: child.stderr! }).on("line", (line) => {
      options.onLine?.(line);
      tail.push(line);
      if (tail.length > tailLines) tail.shift();
    });
    child.once("error", (err: NodeJS.ErrnoException) => {
      // not started at all; an abort instead waits for the process to be gone (close)
      if (err.code === "ENOENT") reject(new FfmpegError(`${options.program} is not installed`, true));
    });
    child.once("close", (code, signal) => {
      if (code === 0) resolve(out);
      else if (stop.aborted)
        reject(new FfmpegError(`${options.program} stopped: ${String(stop.reason?.name ?? "aborted")}`));
      else
        reject(
          new FfmpegError(
            `${options.program} ${signal ? `killed (${signal})` : `exited ${code}`}: ${tail.join(" | ")}`,
          ),
        );
    });
  });
}
