import { z } from "zod";
import { ALL_SCOPES } from "@/lib/access/scopes";

// The Me record (spec section 2).
export const MeSchema = z
  .object({
    user_id: z.string(),
    user_name: z.string().nullable(),
    user_email: z.string().nullable(),
    org_id: z.string(),
    org_name: z.string().nullable(),
    client_id: z.string().meta({ description: "The public OAuth client_id" }),
    scopes: z.array(z.enum(ALL_SCOPES)).meta({ description: "Scopes actually granted, possibly fewer than requested" }),
  })
  .meta({ id: "Me", description: "The user, organization and client behind the access token" });

export type Me = z.infer<typeof MeSchema>;
