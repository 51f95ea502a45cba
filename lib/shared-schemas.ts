import { z } from "zod";
import { isUuid } from "@/lib/ids";

// Schema building blocks shared by every resource's schemas (lib/<domain>/schemas.ts) and the API
// layer: path ids, query booleans, date-times in responses.

/**
 * A uuid path segment. Anything else is 404 not_found (D4): a path parameter that does not parse
 * is a resource that does not exist, so the wrapper turns params issues into 404 with this message.
 */
export function pathId(resource: string) {
  return z
    .string()
    .refine(isUuid, { message: `${resource} not found` })
    .meta({ format: "uuid" });
}

/** `?flag=true` / `?flag=false` (also 1/0); anything else is a 400 naming the parameter. */
export const queryBoolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/**
 * A date-time in a response: the handler passes a Date, the client gets ISO 8601 (documented as
 * `string`, `date-time`). Request bodies use `z.iso.datetime()` instead.
 */
export const dateTime = z
  .date()
  .transform((d) => d.toISOString())
  .meta({ type: "string", format: "date-time" });
