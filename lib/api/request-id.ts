import { randomUUID } from "node:crypto";

// A caller's X-Request-Id is echoed so that it can correlate its logs with ours, but only when it
// is short and plain: it ends up in our logs and in a response header.
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id")?.trim();
  return incoming && SANE.test(incoming) ? incoming : randomUUID();
}
