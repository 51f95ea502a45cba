// The one application error type. Domain code throws it; lib/api maps it to `{error,
// error_description}` and a status (D3); the web maps it to a message.

const ERROR_STATUS = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  api_access_disabled: 403,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  server_error: 500,
  /** A service the request needs (file storage) did not answer in time; sent with Retry-After. */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorDetails {
  /** The input field the error is about (the API's name for it, e.g. "events", "url"). */
  field?: string;
  /** The message for a person at a form, without the field's name; the description otherwise. */
  userMessage?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. WWW-Authenticate or Retry-After. */
  readonly headers: Record<string, string>;
  readonly field?: string;
  readonly userMessage: string;

  constructor(code: ErrorCode, description: string, headers: Record<string, string> = {}, details: AppErrorDetails = {}) {
    super(description);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
    this.field = details.field;
    this.userMessage = details.userMessage ?? description;
  }
}

export const invalidRequest = (description: string) => new AppError("invalid_request", description);
/** 400 `field: message` for the API, with the field and the bare message for a form (lib/web/form-input). */
export const invalidField = (field: string, message: string) => new AppError("invalid_request", `${field}: ${message}`, {}, { field, userMessage: message });
export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const conflict = (description: string) => new AppError("conflict", description);
export const forbidden = (description: string) => new AppError("forbidden", description);

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
