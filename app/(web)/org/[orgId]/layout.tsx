import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AccountControls } from "@/components/account-controls";
import { signOutAction } from "@/app/sign-in/actions";
import { MAIN_ID } from "@/components/main-id";
import { AppHeader, type HeaderLink } from "@/components/app-header";
import { OrgSwitcher } from "@/components/org-switcher";
import { listUserOrganizations } from "@/lib/access/organizations";
import { findUserViewer } from "@/lib/access/viewer";
import { inboxUnreadCount } from "@/lib/inbox/list-inbox";
import { mustEnrolTwoFactor, TWO_FACTOR_PATH } from "@/lib/auth/require-two-factor";
import { requireUser } from "@/lib/auth/session";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";
import { orgBrand } from "@/lib/organization/brand-style";
import { ViewerTimeZone } from "../../viewer-time-zone";

export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const user = await requireUser(`/org/${orgId}`);
  const orgs = await listUserOrganizations(user.id);
  const current = orgs.find((o) => o.orgId === orgId);
  if (!current) notFound();
  // The organization requires two-factor of its members: those without it enrol first.
  if (await mustEnrolTwoFactor({ orgId, userId: user.id, role: current.role })) redirect(`${TWO_FACTOR_PATH}?required=1`);
  // Settings: members and admins (guests have none); its own navigation lists every page, and
  // the most used ones stay one click away here. Everyone chooses their own emails.
  const isMember = current.role === "admin" || current.role === "member";
  const showApiSettings = current.role === "admin" && (await hasApiAccess(orgId));
  // The inbox comes first for members, with what they have not seen yet.
  const viewer = isMember ? await findUserViewer(user.id, orgId) : null;
  const unread = viewer ? await inboxUnreadCount({ viewer }) : 0;
  const links: HeaderLink[] = [
    ...(isMember ? [{ href: `/org/${orgId}/inbox`, label: unread > 0 ? `Inbox (${unread >= 100 ? "99+" : unread})` : "Inbox" }] : []),
    { href: `/org/${orgId}`, label: "Portals" },
    ...(isMember ? [{ href: `/org/${orgId}/settings/profile`, label: "Settings" }] : []),
    ...(showApiSettings
      ? [
          { href: `/org/${orgId}/settings/api`, label: "API settings" },
          { href: `/org/${orgId}/settings/webhooks`, label: "Webhooks" },
        ]
      : []),
    ...(isMember ? [{ href: `/org/${orgId}/settings/connected-apps`, label: "Connected apps" }] : []),
    { href: "/account/notifications", label: "My notifications" },
    { href: "/account/sessions", label: "Signed-in sessions" },
    { href: "/account/two-factor", label: "Two-factor authentication" },
  ];

  const brand = await orgBrand(orgId);
  // The organization's brand colour replaces the product's for everything below (a style
  // attribute: the CSP allows those, and the value was validated as #rrggbb when saved).
  return (
    <div className="min-h-screen" style={brand.style}>
      <AppHeader home={`/org/${orgId}`} links={links} logo={brand.logo}>
        <OrgSwitcher current={orgId} options={orgs} />
        <AccountControls user={user} signOut={signOutAction} />
      </AppHeader>
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6 md:py-8">
        <ViewerTimeZone userId={user.id} orgId={orgId}>
          {children}
        </ViewerTimeZone>
      </main>
    </div>
  );
}
