/** An error answer of the Bot API, in Telegram's envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }

  toEnvelope(): ErrorEnvelope {
    return {
      ok: false,
      error_code: this.code,
      description: this.description,
      ...(this.parameters ? { parameters: this.parameters } : {}),
    };
  }
}

export interface ErrorEnvelope {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export interface OkEnvelope {
  ok: true;
  result: unknown;
}

export type Envelope = OkEnvelope | ErrorEnvelope;

export const badRequest = (reason: string) => new ApiError(400, `Bad Request: ${reason}`);
export const forbidden = (reason: string) => new ApiError(403, `Forbidden: ${reason}`);
export const tooManyRequests = (retryAfter: number) =>
  new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
export const conflict = (reason: string) => new ApiError(409, `Conflict: ${reason}`);
