import { redirect } from "next/navigation";
import { listUserOrganizations } from "@/lib/access/organizations";
import { requireUser } from "@/lib/auth/session";

// Home: the first organization of the signed-in user.
export default async function Home() {
  const user = await requireUser("/");
  const [first] = await listUserOrganizations(user.id);
  if (first) redirect(`/org/${first.orgId}`);
  return (
    <main className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">No organization yet</h1>
      <p className="mt-2 text-slate-600">You are signed in, but no organization or portal has been shared with you.</p>
    </main>
  );
}
