/**
 * The Mini App API's addresses and its Authorization header: plain constants, apart
 * from the zod schemas in contract.ts, so that the page can import them without
 * carrying zod (about 28 KB compressed, more than the rest of the page).
 */

export const apiBase = "/app/api";
export const authScheme = "tma";
export const authorizationHeader = (initData: string) => `${authScheme} ${initData}`;

export const apiPaths = {
  me: `${apiBase}/me`,
  gallery: `${apiBase}/gallery`,
  result: (id: string) => `${apiBase}/results/${encodeURIComponent(id)}`,
  resend: (id: string) => `${apiBase}/results/${encodeURIComponent(id)}/resend`,
  preset: (id: string) => `${apiBase}/results/${encodeURIComponent(id)}/preset`,
  composer: `${apiBase}/composer`,
  quote: `${apiBase}/quote`,
  uploads: `${apiBase}/uploads`,
  drafts: `${apiBase}/drafts`,
  generate: `${apiBase}/generate`,
  request: (id: string) => `${apiBase}/generations/${encodeURIComponent(id)}`,
  credits: `${apiBase}/credits`,
  buy: `${apiBase}/buy`,
  erase: `${apiBase}/privacy/erase`,
  adminStats: `${apiBase}/admin/stats`,
  adminBroadcasts: `${apiBase}/admin/broadcasts`,
  adminReports: `${apiBase}/admin/reports`,
} as const;

/** POST /uploads: multipart/form-data with the file in this one field */
export const uploadFieldName = "file";
