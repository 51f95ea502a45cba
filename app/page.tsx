import { redirect } from "next/navigation";
import { listUserOrganizations } from "@/lib/access/organizations";
import { requireUser } from "@/lib/auth/session";
import { GUEST_HOME_PATH } from "@/lib/links";

// Home: the first organization where the signed-in user is a member; someone who is only a
// guest (of one or more portals, in one or more organizations) lands on the guest home.
export default async function Home() {
  const user = await requireUser("/");
  const orgs = await listUserOrganizations(user.id);
  const member = orgs.find((o) => o.role !== "guest");
  if (member) redirect(`/org/${member.orgId}`);
  if (orgs.length > 0) redirect(GUEST_HOME_PATH);
  return (
    <main className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">No organization yet</h1>
      <p className="mt-2 text-fg-muted">You are signed in, but no organization or portal has been shared with you.</p>
    </main>
  );
}
