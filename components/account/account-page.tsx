import Link from "next/link";
import type { ReactNode } from "react";
import { listUserOrganizations } from "@/lib/access/organizations";

/** The frame of the user's own pages (/account/...): the way back, the title and what it is about. */
export async function AccountPage({ userId, title, intro, children }: { userId: string; title: string; intro: ReactNode; children: ReactNode }) {
  const orgs = await listUserOrganizations(userId);
  const home = orgs[0] ? `/org/${orgs[0].orgId}` : "/";
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:py-8">
      <Link href={home} className="text-sm text-brand underline">
        Back to Client Portals
      </Link>
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">{intro}</p>
      </div>
      {children}
    </main>
  );
}
