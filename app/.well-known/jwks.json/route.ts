import { listPublicKeys } from "@/lib/oauth/signing-keys";

// GET /.well-known/jwks.json - public keys that verify access tokens (D23)

// Read from the database at each request: keys rotate, and the build has no database.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  // Short caching: a verifier meeting an unknown kid refetches anyway (new key after rotation).
  return Response.json(
    { keys: await listPublicKeys() },
    {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    },
  );
}
