import type { ReactNode } from "react";
import { AccountControls } from "@/components/account-controls";
import { AppHeader, type HeaderItem } from "@/components/app-header";
import { OrgSwitcher, type OrgOption } from "@/components/org-switcher";
import { settingsLinks } from "@/components/settings/settings-pages";
import { findUserViewer } from "@/lib/access/viewer";
import { inboxUnreadCount } from "@/lib/inbox/list-inbox";
import { GUEST_HOME_PATH } from "@/lib/links";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";

// The two signed-in headers, each one component wherever it shows: the firm's (an organization's
// pages and the account pages of anyone who is a member somewhere) and the client's (their home,
// a portal of any firm, and the account pages of a client who is nothing else).

type User = { id: string; name?: string | null; email?: string | null };
type Logo = { src: string; orgName: string } | null;

/**
 * A member's header: Inbox, Portals, Settings, and one Developers menu (API settings and Webhooks
 * for admins with API access, Connected apps for everyone), the organization switcher and the
 * account menu. One row at 1280 px.
 */
export async function FirmHeader({
  orgId,
  role,
  orgs,
  user,
  logo,
  signOut,
}: {
  orgId: string;
  role: "admin" | "member";
  orgs: OrgOption[];
  user: User;
  logo: Logo;
  signOut: () => Promise<void>;
}) {
  const admin = role === "admin";
  const [viewer, api] = await Promise.all([findUserViewer(user.id, orgId), admin ? hasApiAccess(orgId) : false]);
  // The inbox comes first, with what the member has not seen yet.
  const unread = viewer ? await inboxUnreadCount({ viewer }) : 0;
  const { general, developers } = settingsLinks(orgId, { admin, api });
  const items: HeaderItem[] = [
    { href: `/org/${orgId}/inbox`, label: unread > 0 ? `Inbox (${unread >= 100 ? "99+" : unread})` : "Inbox" },
    { href: `/org/${orgId}`, label: "Portals" },
    { href: general[0]!.href, label: "Settings" },
    { id: "developers-menu", label: "Developers", links: developers },
  ];
  return (
    <AppHeader kind="firm" home={`/org/${orgId}`} items={items} logo={logo}>
      <OrgSwitcher current={orgId} options={orgs} />
      <AccountControls user={user} signOut={signOut} />
    </AppHeader>
  );
}

/** A client's header: their portals (of every firm) and the account menu; in a firm's portal, that firm's logo. */
export function ClientHeader({ user, logo = null, signOut }: { user: User; logo?: Logo; signOut: () => Promise<void> }): ReactNode {
  return (
    <AppHeader kind="client" home={GUEST_HOME_PATH} items={[{ href: GUEST_HOME_PATH, label: "Your portals" }]} logo={logo}>
      <AccountControls user={user} signOut={signOut} />
    </AppHeader>
  );
}
