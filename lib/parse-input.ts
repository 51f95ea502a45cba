import type { z } from "zod";
import { AppError, invalidRequest } from "@/lib/errors";

/**
 * Domain-side parsing for callers that did not go through the API wrapper (web actions): 400
 * `path: message` for the API, with the field and the bare message for a form.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.join(".");
  const message = issue?.message ?? "is invalid";
  if (!path) throw invalidRequest(message);
  // The API names the exact path (events.1); a form marks the field (events).
  throw new AppError("invalid_request", `${path}: ${message}`, {}, { field: String(issue?.path[0]), userMessage: message });
}
