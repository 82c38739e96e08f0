/** The rows a raw statement returned: postgres-js gives an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** Rows touched by a raw statement: postgres-js and PGlite report them differently. */
export function countOf(result: unknown): number {
  const r = result as { rows?: unknown[]; affectedRows?: number; count?: number };
  if (typeof r.count === "number") return r.count;
  if (typeof r.affectedRows === "number") return r.affectedRows;
  if (Array.isArray(r.rows)) return r.rows.length;
  return Array.isArray(result) ? result.length : 0;
}
