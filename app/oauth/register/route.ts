import { registerPublicClient } from "@/lib/oauth/clients/dynamic";
import { handleOAuth, oauthJson } from "@/lib/oauth/token/http";
import { oauthInvalidRequest } from "@/lib/oauth/token/errors";

// POST {API_URL}/oauth/register - RFC 7591 dynamic client registration (public clients, PKCE)

export const dynamic = "force-dynamic";

const MAX_BYTES = 16 * 1024;

export function POST(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      throw oauthInvalidRequest("The registration request must be application/json");
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BYTES) throw oauthInvalidRequest("The registration request is too large");
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      throw oauthInvalidRequest("The registration request is not valid JSON");
    }
    return oauthJson(await registerPublicClient(metadata), 201);
  });
}
