import type { z } from "zod";
import { invalidRequest } from "@/lib/errors";

/** Domain-side parsing for callers that did not go through the API wrapper (web actions). */
export function parseWebhookInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".");
  throw invalidRequest(`${field ? `${field}: ` : ""}${issue?.message ?? "is invalid"}`);
}
