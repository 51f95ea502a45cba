import { z } from "zod";

// The Error body every /api/v1 error uses. The building blocks of params, query and response
// schemas that the domain's schemas share are in lib/shared-schemas.ts.

export const ErrorSchema = z
  .object({
    error: z.string().meta({ description: "Machine-readable code, e.g. invalid_request, not_found" }),
    error_description: z.string().meta({ description: "Human-readable explanation" }),
  })
  .meta({ id: "Error" });
