import { mapError } from "./error-response";
import { API_OPERATIONS } from "./openapi/operations";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";
import { AppError } from "@/lib/errors";

function errorResponse(req: Request, error: AppError, extra: Record<string, string> = {}): Response {
  const { status, body } = mapError(error);
  return jsonResponse(status, JSON.stringify(body), { ...standardHeaders(requestIdOf(req)), ...extra });
}

/** Any method on a path under /api/v1 that no route serves: the JSON 404 (D2, D3), no token needed. */
export async function unknownApiPath(req: Request): Promise<Response> {
  return errorResponse(req, new AppError("not_found", `No API endpoint at ${req.method} ${new URL(req.url).pathname}`));
}

const TEMPLATES = API_OPERATIONS.map((op) => ({
  method: op.method,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** The methods the API serves at a path; empty when no operation has it. */
export function allowedMethods(pathname: string): string[] {
  return [...new Set(TEMPLATES.filter((t) => t.pattern.test(pathname)).map((t) => t.method))];
}

/**
 * 405 as JSON with `Allow` when the path exists but not for this method; null otherwise. Next.js
 * would answer an unexported method with an empty 405, which is not the API's error shape (D2).
 */
export function methodNotAllowed(req: Request): Response | null {
  const allowed = allowedMethods(new URL(req.url).pathname);
  if (allowed.length === 0 || allowed.includes(req.method) || (req.method === "HEAD" && allowed.includes("GET"))) return null;
  return errorResponse(req, new AppError("method_not_allowed", `${req.method} is not allowed here; use ${allowed.join(", ")}`), { Allow: allowed.join(", ") });
}
