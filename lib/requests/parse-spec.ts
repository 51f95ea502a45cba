import { invalidRequest } from "@/lib/errors";
import { RequestSpecSchema, type RequestSpec } from "./schemas";

/** A request as stored, or a 400 naming the first problem (`due.days: ...`). */
export function parseRequestSpec(input: unknown): RequestSpec {
  const parsed = RequestSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidRequest(`${issue.path.join(".") || "spec"}: ${issue.message}`);
  }
  return parsed.data;
}
