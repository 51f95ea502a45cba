import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { signOutAction } from "@/app/sign-in/actions";
import { MAIN_ID } from "@/components/main-id";
import { ClientHeader, FirmHeader } from "@/components/signed-in-headers";
import { listUserOrganizations } from "@/lib/access/organizations";
import { mustEnrolTwoFactor, TWO_FACTOR_PATH } from "@/lib/auth/require-two-factor";
import { requireUser } from "@/lib/auth/session";
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

  const brand = await orgBrand(orgId);
  // The organization's brand colour replaces the product's for everything below (a style
  // attribute: the CSP allows those, and the value was validated as #rrggbb when saved). A client
  // has the header of their home here too, with the firm's logo.
  return (
    <div className="min-h-screen" style={brand.style}>
      {current.role === "guest" ? (
        <ClientHeader user={user} logo={brand.logo} signOut={signOutAction} />
      ) : (
        <FirmHeader orgId={orgId} role={current.role} orgs={orgs} user={user} logo={brand.logo} signOut={signOutAction} />
      )}
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6 md:py-8">
        <ViewerTimeZone userId={user.id} orgId={orgId}>
          {children}
        </ViewerTimeZone>
      </main>
    </div>
  );
}
