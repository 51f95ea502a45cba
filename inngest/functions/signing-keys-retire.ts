import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { ACCESS_TOKEN_TTL_SECONDS } from "@/lib/oauth/access-token";
import { retireExpiredSigningKeys } from "@/lib/oauth/signing-keys";

/**
 * Hourly: signing keys rotated out (`npm run oauth:rotate-signing-key`, or a new
 * OAUTH_SIGNING_KEY) more than an access token's lifetime ago leave the JWKS, and tokens they
 * signed are refused from then on.
 */
export const signingKeysRetire = inngest.createFunction(
  { id: "signing-keys-retire", triggers: [cron("41 * * * *")], singleton: { mode: "skip" } },
  async ({ step }) => ({ retired: await step.run("retire", () => retireExpiredSigningKeys(ACCESS_TOKEN_TTL_SECONDS)) }),
);
