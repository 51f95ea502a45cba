import { z } from "zod";
import { isAppError } from "@/lib/errors";
import type { FormState } from "@/lib/web/form-state";

// From a submitted form to a schema's input, and from an error back to the form (lib/web/org-action.ts).

/**
 * The form's fields as a plain object for a zod schema: a field the schema declares as an array
 * gets every value (checkboxes), any other field its first value. Files are not form input here.
 */
export function formFields(formData: FormData, schema: z.ZodType): Record<string, string | string[]> {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  const isArray = (key: string) => {
    let s: z.ZodType | undefined = shape[key];
    // Unwrap optional/default/catch to see whether the field is a list.
    while (s && !(s instanceof z.ZodArray) && "unwrap" in s && typeof s.unwrap === "function") s = (s as { unwrap: () => z.ZodType }).unwrap();
    return s instanceof z.ZodArray;
  };
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(formData.keys())) {
    // React adds its own $ACTION_ fields to progressively enhanced forms.
    if (key.startsWith("$ACTION")) continue;
    const values = formData.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = isArray(key) ? values : (values[0] ?? "");
  }
  for (const key of Object.keys(shape)) if (!(key in out) && isArray(key)) out[key] = [];
  return out;
}

/**
 * An AppError or zod error as form state: at its field when the form shows that field (`fields`),
 * as the form's message otherwise (e.g. a hidden id). Null for anything else.
 */
export function errorState(e: unknown, fields: readonly string[] = []): Pick<FormState, "error" | "fieldErrors"> | null {
  let found: { field: string; message: string }[];
  if (e instanceof z.ZodError) found = e.issues.map((i) => ({ field: String(i.path[0] ?? ""), message: i.message }));
  else if (isAppError(e)) found = [{ field: e.field ?? "", message: e.userMessage }];
  else return null;
  const fieldErrors: Record<string, string> = {};
  for (const { field, message } of found) if (fields.includes(field)) fieldErrors[field] ??= message;
  if (Object.keys(fieldErrors).length > 0) return { fieldErrors };
  const first = found[0];
  return { error: first ? (first.field && e instanceof z.ZodError ? `${first.field}: ${first.message}` : first.message) : "Check the form and try again." };
}
