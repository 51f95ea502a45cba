import { isAppError } from "@/lib/errors";
import { readOrgLogo } from "@/lib/organization/logo";

// The organization's logo from our own origin (CSP img-src 'self'), for its pages and its emails.
// Public on purpose: email clients fetch it without a session (lib/organization/logo.ts). The path
// names the bytes' hash, so a browser may keep it forever; a replaced logo's old path is 404.
export async function GET(_req: Request, { params }: { params: Promise<{ orgId: string; sha256: string }> }) {
  const { orgId, sha256 } = await params;
  try {
    const logo = await readOrgLogo(orgId, sha256);
    if (!logo) return new Response("No such logo", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    return new Response(Buffer.from(logo.bytes), {
      headers: {
        "Content-Type": logo.type,
        "Content-Length": String(logo.bytes.length),
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'",
      },
    });
  } catch (e) {
    if (isAppError(e) && e.code === "service_unavailable") return new Response("Storage unavailable, retry later", { status: 503, headers: e.headers });
    throw e;
  }
}
