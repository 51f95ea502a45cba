import { AppError } from "@/lib/errors";
import { RequestSpecSchema, type RequestSpec } from "./schemas";

/** 400 about one field of a request (`title: ...`), which a web form shows at that field. */
export function specError(field: string, message: string): AppError {
  return new AppError("invalid_request", `${field}: ${message}`, {}, { field: field.split(".")[0], userMessage: message });
}

/** A request as stored, or a 400 naming the first problem (`due.days: ...`). */
export function parseRequestSpec(input: unknown): RequestSpec {
  const parsed = RequestSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw specError(issue.path.join(".") || "spec", issue.message);
  }
  return parsed.data;
}
