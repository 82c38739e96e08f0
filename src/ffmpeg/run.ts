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
  /** collects stdout (ffprobe's JSON): small answers only */
  stdout?: boolean;
  timeoutMs?: number;
}

/** Lines of stderr kept for the error message: ffmpeg says what went wrong last. */
const tailLines = 8;

/**
 * Runs ffmpeg or ffprobe with an argument list (no shell), reading its stderr
 * line by line as it comes, so a long run costs no memory; resolves with
 * stdout when asked for, rejects with the last lines of stderr.
 */
export function runFfmpeg(options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.program, options.args, {
      stdio: ["ignore", options.stdout ? "pipe" : "ignore", "pipe"],
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
    const timer = options.timeoutMs
      ? setTimeout(() => child.kill("SIGKILL"), options.timeoutMs).unref()
      : undefined;
    child.once("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new FfmpegError(
          err.code === "ENOENT" ? `${options.program} is not installed` : err.message,
          err.code === "ENOENT",
        ),
      );
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new FfmpegError(
            `${options.program} ${signal ? `killed (${signal})` : `exited ${code}`}: ${tail.join(" | ")}`,
          ),
        );
    });
  });
}
