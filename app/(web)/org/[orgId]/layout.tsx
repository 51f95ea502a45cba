import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { OrgSwitcher } from "@/components/org-switcher";
import { Button } from "@/components/ui/button";
import { listUserOrganizations } from "@/lib/auth/roles";
import { requireUser } from "@/lib/auth/session";
import { signOutAction } from "@/app/sign-in/actions";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";

export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const user = await requireUser(`/org/${orgId}`);
  const orgs = await listUserOrganizations(user.id);
  const current = orgs.find((o) => o.orgId === orgId);
  if (!current) notFound();
  // Connected apps: members and admins (only they can authorize apps); API settings: admins of
  // organizations that have the API.
  const isMember = current.role === "admin" || current.role === "member";
  const showApiSettings = current.role === "admin" && (await hasApiAccess(orgId));

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <div className="flex items-center gap-6">
            <Link href={`/org/${orgId}`} className="text-lg font-semibold text-brand">Client Portals</Link>
            {isMember ? (
              <nav aria-label="Settings" className="flex gap-4 text-sm">
                {showApiSettings ? <Link className="text-slate-700 hover:text-brand" href={`/org/${orgId}/settings/api`}>API settings</Link> : null}
                {showApiSettings ? <Link className="text-slate-700 hover:text-brand" href={`/org/${orgId}/settings/webhooks`}>Webhooks</Link> : null}
                <Link className="text-slate-700 hover:text-brand" href={`/org/${orgId}/settings/connected-apps`}>Connected apps</Link>
              </nav>
            ) : null}
          </div>
          <div className="flex items-center gap-4">
            <OrgSwitcher current={orgId} options={orgs} />
            <span className="text-sm text-slate-600" data-testid="signed-in-as">{user.name ?? user.email}</span>
            <form action={signOutAction}>
              <Button type="submit" variant="ghost">Sign out</Button>
            </form>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}
