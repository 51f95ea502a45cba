import { z } from "zod";

/** A form field holding JSON (a builder's fields, a placement, a request), parsed before the domain checks it. */
export const jsonField = z.string().transform((s, ctx) => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    ctx.addIssue({ code: "custom", message: "Not valid JSON" });
    return z.NEVER;
  }
});
