import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { NavTabs, type NavTab } from "@/components/ui/nav-tabs";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";

/**
 * Every settings page under one navigation; guests have no settings (not found). The API, webhook
 * and connected-apps tabs are named apart from the header's links to the same pages.
 */
export default async function SettingsLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/profile`);
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  const admin = mayOrg(viewer, "manageOrganization");
  const api = admin && (await hasApiAccess(orgId));
  const base = `/org/${orgId}/settings`;
  const tabs: NavTab[] = [
    { href: `${base}/profile`, label: "Profile" },
    ...(admin
      ? [
          { href: `${base}/members`, label: "Members" },
          { href: `${base}/workflow-states`, label: "Workflow states" },
          { href: `${base}/guest-defaults`, label: "Guest defaults" },
          { href: `${base}/partner`, label: "Partner integration" },
        ]
      : []),
    ...(api
      ? [
          { href: `${base}/api`, label: "API clients" },
          { href: `${base}/webhooks`, label: "Webhook endpoints", matchPrefix: `${base}/webhooks` },
        ]
      : []),
    { href: `${base}/connected-apps`, label: "Authorized apps" },
  ];
  return (
    <div className="space-y-6">
      <NavTabs label="Organization settings" tabs={tabs} />
      {children}
    </div>
  );
}
