import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { OrgSwitcher } from "@/components/org-switcher";
import { Button } from "@/components/ui/button";
import { listUserOrganizations } from "@/lib/auth/roles";
import { requireUser } from "@/lib/auth/session";
import { signOutAction } from "@/app/sign-in/actions";

export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const user = await requireUser(`/org/${orgId}`);
  const orgs = await listUserOrganizations(user.id);
  const current = orgs.find((o) => o.orgId === orgId);
  if (!current) notFound();

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <Link href={`/org/${orgId}`} className="text-lg font-semibold text-brand">Client Portals</Link>
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
