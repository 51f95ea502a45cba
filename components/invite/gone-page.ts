// The page of an invitation link that is no longer usable, answered by proxy.ts with 410 Gone: a
// page cannot set that status itself (Next.js knows only 401, 403 and 404). Plain HTML with the
// look of the app's cards (the app's stylesheet has a build-specific name).

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `nonce`: the response's CSP nonce (proxy.ts), which its inline style needs. */
export function goneHtml({ title, message, renewAction }: { title: string; message: string; renewAction?: string }, nonce: string): string {
  // An expired link offers a fresh one (a plain form: this page has no script), sent to the invited address.
  const renew = renewAction ? `<form method="post" action="${escape(renewAction)}"><button type="submit">Email me a fresh link</button></form>` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Client Portals</title>
<style nonce="${escape(nonce)}">
body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;color:#0f172a;background:#f8fafc}
main{box-sizing:border-box;max-width:28rem;min-height:100vh;margin:0 auto;padding:0 1rem;display:flex;flex-direction:column;justify-content:center;gap:1.5rem}
h1{margin:0;text-align:center;font-size:1.5rem;font-weight:600;color:#1f4e79}
section{border:1px solid #e2e8f0;border-radius:.5rem;background:#fff;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h2{margin:0 0 1rem;font-size:1.125rem;font-weight:600}p{margin:0 0 1rem;line-height:1.5}a{color:#1f4e79}
button{font:inherit;font-weight:500;color:#fff;background:#1f4e79;border:0;border-radius:.375rem;padding:.5rem 1rem;margin:0 0 1rem;cursor:pointer}
button:focus-visible,a:focus-visible{outline:2px solid #1f4e79;outline-offset:2px}
</style></head>
<body><main><h1>Client Portals</h1><section><h2>${escape(title)}</h2><p>${escape(message)}</p>${renew}<p><a href="/sign-in">Sign in</a></p></section></main></body></html>`;
}

/** The title and message of an expired or already accepted invitation. */
export function goneInvitation(view: { status: "expired" | "accepted"; portalName: string; orgName: string }): { title: string; message: string } {
  const where = `${view.portalName} (${view.orgName})`;
  return view.status === "expired"
    ? {
        title: "Invitation expired",
        message: `This invitation to ${where} has expired. We can email you a fresh link, or ask ${view.orgName} to invite you again.`,
      }
    : { title: "Invitation already used", message: `This invitation to ${where} was already accepted.` };
}
