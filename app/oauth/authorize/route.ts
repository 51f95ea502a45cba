import type { NextRequest } from "next/server";
import { currentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { checkAuthorizeRequest } from "@/lib/oauth/authorize";
import { authorizeParamsFrom, authorizeRedirect, authorizeResponse } from "@/lib/oauth/consent";

// GET {APP_URL}/oauth/authorize - check the request, then sign-in, consent, or an error (D23).

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const params = authorizeParamsFrom(request.nextUrl.searchParams);
  const check = await checkAuthorizeRequest(params);
  const signedIn = check.kind === "ok" && (await currentUser()) !== null;
  // App-relative targets are made absolute on APP_URL, the one address of the web application.
  return authorizeResponse(new URL(authorizeRedirect(check, params, signedIn), `${env().APP_URL}/`).toString());
}
