import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { settingsLinks } from "@/components/settings/settings-pages";
import { NavTabs, type NavTab } from "@/components/ui/nav-tabs";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";

/**
 * Every settings page under one navigation, each tab named as the page's h1 and the header's
 * Developers menu name it; guests have no settings (not found).
 */
export default async function SettingsLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/profile`);
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  const admin = mayOrg(viewer, "manageOrganization");
  const { general, developers } = settingsLinks(orgId, { admin, api: admin && (await hasApiAccess(orgId)) });
  // Webhooks: also current on a webhook's own page.
  const tabs: NavTab[] = [...general, ...developers].map((l) => (l.href.endsWith("/webhooks") ? { ...l, matchPrefix: l.href } : l));
  return (
    <div className="space-y-6">
      <NavTabs label="Organization settings" tabs={tabs} />
      {children}
    </div>
  );
}
