import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { OAuthError } from "@/components/oauth/oauth-error";
import { checkAuthorizeRequest } from "@/lib/oauth/authorize";
import { authorizeParamsFrom, CONSENT_ERRORS, type ConsentErrorReason } from "@/lib/oauth/consent";

export const metadata: Metadata = { title: "Authorization failed" };

const FALLBACK = "This authorization request cannot be completed.";

// The message comes from a fixed list or from checking the authorize parameters again, never from
// the URL itself, so nobody can make this page say something of their choosing.
async function messageFor(query: Record<string, string | string[] | undefined>): Promise<string> {
  const reason = typeof query.reason === "string" ? query.reason : "";
  if (Object.hasOwn(CONSENT_ERRORS, reason)) return CONSENT_ERRORS[reason as ConsentErrorReason];
  const check = await checkAuthorizeRequest(authorizeParamsFrom(query));
  return check.kind === "error_page" ? check.message : FALLBACK;
}

export default async function OAuthErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  // A consent form posted from another site (proxy.ts rewrites it here): 403, see ../forbidden.tsx.
  if (query.reason === "foreign_origin") forbidden();
  return <OAuthError message={await messageFor(query)} />;
}
