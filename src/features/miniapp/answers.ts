import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { ApiError } from "./contract";

const statusOf: Record<ApiError["error"], ContentfulStatusCode> = {
  invalid: 400,
  unauthorized: 401,
  banned: 403,
  draft_refused: 403,
  not_found: 404,
  rate_limited: 429,
  insufficient: 409,
  price_changed: 409,
  no_price: 409,
  refused_prompt: 403,
  not_available: 409,
  unavailable: 503,
};

/** An error answer of the contract, with its status. */
export function fail(c: Context, body: ApiError): Response {
  return c.json(body, statusOf[body.error]);
}

/** A request part that did not parse: what is wrong, in zod's words (the first issue). */
export function invalid(c: Context, error: z.ZodError): Response {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return fail(c, { error: "invalid", message: `${where}${issue?.message ?? "invalid"}` });
}

/** An answer checked against its contract schema before it leaves (a mismatch is our bug: it throws). */
export function answer<S extends z.ZodType>(c: Context, schema: S, body: z.input<S>): Response {
  return c.json(schema.parse(body) as object);
}

/** The request's JSON body; undefined when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}
