import { handleRevokeRequest } from "@/lib/oauth/revoke-endpoint";

// POST {base_url}/oauth/revoke - revoke a refresh or access token and its grant (RFC 7009)
export function POST(request: Request): Promise<Response> {
  return handleRevokeRequest(request);
}
