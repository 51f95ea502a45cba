import { mapError } from "./error-response";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";
import { AppError } from "@/lib/errors";

/** Any method on a path under /api/v1 that no route serves: the JSON 404 (D2, D3), no token needed. */
export async function unknownApiPath(req: Request): Promise<Response> {
  const { status, body } = mapError(new AppError("not_found", `No API endpoint at ${req.method} ${new URL(req.url).pathname}`));
  return jsonResponse(status, JSON.stringify(body), standardHeaders(requestIdOf(req)));
}
