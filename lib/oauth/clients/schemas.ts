import { z } from "zod";
import { ALL_SCOPES } from "@/lib/access/scopes";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https, or http on a loopback host (native and local development clients); no fragment. */
const redirectUriSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.hash || url.username || url.password) return false;
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  }, "must be an https URL (or http on localhost) without a fragment");

export const clientInputSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100),
  redirectUris: z.array(redirectUriSchema).min(1, "needs at least one redirect URI").max(10),
  allowedScopes: z.array(z.enum(ALL_SCOPES)).min(1, "needs at least one scope"),
});

export type ClientInput = z.input<typeof clientInputSchema>;
