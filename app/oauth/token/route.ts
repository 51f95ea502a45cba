import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";

// POST {base_url}/oauth/token - exchange a code or a refresh token for tokens (RFC 6749, D23)
export function POST(request: Request): Promise<Response> {
  return handleTokenRequest(request);
}
