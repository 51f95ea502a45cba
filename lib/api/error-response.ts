import { ZodError } from "zod";
import { isDatabaseUnavailable, isTransactionConflict } from "@/lib/db-unavailable";
import { isAppError } from "@/lib/errors";

// The one error mapper (D3): AppError → its code and status, ZodError → 400 naming the field,
// anything else → 500 with a generic description (the cause is logged, never sent).

interface ErrorBody {
  error: string;
  error_description: string;
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the cause must be logged: the client only sees a generic message. */
  unexpected: boolean;
}

type Issue = ZodError["issues"][number];

/** `name: Required`, `tags.0: Expected string, received number`; the path is the field's. */
function formatIssue(issue: Issue, root = "Request body"): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : root;
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) return `${field}: Required`;
  const message = issue.message.replace(/^Invalid input: /, "");
  return `${field}: ${message.charAt(0).toUpperCase()}${message.slice(1)}`;
}

/** At most three issues, so a huge invalid body does not produce a huge error. */
export function formatZodError(error: ZodError, root?: string): string {
  const lines = error.issues.slice(0, 3).map((i) => formatIssue(i, root));
  const more = error.issues.length - 3;
  return more > 0 ? `${lines.join("; ")} (and ${more} more)` : lines.join("; ");
}

/** Seconds a client waits before retrying while the database is unreachable (a restart takes a few). */
const DATABASE_RETRY_AFTER = "5";
/** Seconds a client waits before retrying a change that lost every attempt to concurrent changes. */
const CONTENTION_RETRY_AFTER = "1";

const SERVER_ERROR: ErrorBody = { error: "server_error", error_description: "The server could not complete the request" };

export function mapError(error: unknown): MappedError {
  // An AppError of status 500 may carry a detail meant for the logs: it is treated as unexpected.
  // 503 service_unavailable is meant for the client: retry after Retry-After.
  if (isAppError(error) && (error.status < 500 || error.code === "service_unavailable")) {
    return { status: error.status, body: { error: error.code, error_description: error.message }, headers: error.headers, unexpected: false };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { error: "invalid_request", error_description: formatZodError(error) }, headers: {}, unexpected: false };
  }
  // The database restarting or unreachable: nothing was committed, and a retry will do the work.
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { error: "service_unavailable", error_description: "The database is not reachable right now; retry after the time in Retry-After" },
      headers: { "Retry-After": DATABASE_RETRY_AFTER },
      unexpected: false,
    };
  }
  // A transaction that lost to concurrent changes on every attempt (lib/db.ts): nothing was
  // committed, and a retry a moment later will do the work.
  if (isTransactionConflict(error)) {
    return {
      status: 503,
      body: {
        error: "service_unavailable",
        error_description: "The change conflicted with concurrent changes of the same data; retry after the time in Retry-After",
      },
      headers: { "Retry-After": CONTENTION_RETRY_AFTER },
      unexpected: false,
    };
  }
  return { status: 500, body: SERVER_ERROR, headers: {}, unexpected: true };
}
