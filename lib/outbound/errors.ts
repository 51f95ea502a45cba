// Why an outbound request was refused or failed. Callers store the reason (webhook attempt log,
// file ingestion error) and map it to their own messages; the message is for logs and may name
// the host, never a resolved internal address.

export type OutboundFailure =
  "invalid_url" | "scheme_not_allowed" | "private_address" | "dns_failed" | "timeout" | "too_large" | "too_many_redirects" | "connection_failed" | "tls_failed";

export class OutboundError extends Error {
  readonly reason: OutboundFailure;

  constructor(reason: OutboundFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundError";
    this.reason = reason;
  }
}

export function isOutboundError(e: unknown): e is OutboundError {
  return e instanceof OutboundError;
}
