import type { ReactNode } from "react";
import { signOutAction } from "@/app/sign-in/actions";
import { MAIN_ID } from "@/components/main-id";
import { ClientHeader, FirmHeader } from "@/components/signed-in-headers";
import { listUserOrganizations } from "@/lib/access/organizations";
import { currentUser } from "@/lib/auth/session";
import { orgBrand } from "@/lib/organization/brand-style";
import { ViewerTimeZone } from "../viewer-time-zone";

/**
 * The user's own pages (each asks for the session itself), inside the header they have elsewhere:
 * a member's, of the first organization they belong to (the one sign-in lands on), or a client's.
 */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  const orgs = user ? await listUserOrganizations(user.id) : [];
  const firm = orgs.find((o) => o.role === "admin" || o.role === "member");
  const brand = firm ? await orgBrand(firm.orgId) : null;
  return (
    <div className="min-h-screen" style={brand?.style}>
      {user && firm && (firm.role === "admin" || firm.role === "member") ? (
        <FirmHeader orgId={firm.orgId} role={firm.role} orgs={orgs} user={user} logo={brand?.logo ?? null} signOut={signOutAction} />
      ) : user ? (
        <ClientHeader user={user} signOut={signOutAction} />
      ) : null}
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-3xl px-4 py-6 md:py-8">
        <ViewerTimeZone userId={user?.id ?? null}>{children}</ViewerTimeZone>
      </main>
    </div>
  );
}
