/** An error's message for a log line or a notice; a thrown non-Error as text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
