import type { Metadata } from "next";
import { OAuthError } from "@/components/oauth/oauth-error";
import { CONSENT_ERRORS } from "@/lib/oauth/consent";

export const metadata: Metadata = { title: "Authorization refused" };

// forbidden() under /oauth is only called for a consent form posted from another site.
export default function OAuthForbidden() {
  return <OAuthError message={CONSENT_ERRORS.foreign_origin} />;
}
