import { goneHtml } from "@/components/invite/gone-page";
import { renewExpiredInvitation } from "@/lib/guests/renew-invitation";

// POST from the expired-invitation page (proxy.ts): a fresh link to the invited address. Answers
// with a small page saying what happened (no script, the same look as the expired page).

const MESSAGES = {
  sent: { title: "A fresh link is on its way", message: "Check your email: the new invitation link works for 14 days." },
  already_sent: { title: "A fresh link was already sent", message: "Check your email (and its spam folder) for the newest invitation; it is still valid." },
  unavailable: { title: "This link cannot be renewed", message: "Ask the firm that invited you to send a new invitation." },
} as const;

export async function POST(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const outcome = await renewExpiredInvitation(token);
  // The proxy put this response's CSP (with its nonce) on the request; the page's <style> needs it.
  const nonce = /'nonce-([^']+)'/.exec(req.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  return new Response(goneHtml(MESSAGES[outcome], nonce), {
    status: outcome === "unavailable" ? 410 : 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
