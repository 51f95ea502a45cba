import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { Button } from "@/components/ui/button";
import { requireUser } from "@/lib/auth/session";
import { GUEST_HOME_PATH } from "@/lib/portals/links";
import { signOutAction } from "@/app/sign-in/actions";

/** The client's home: outside any one organization (a client may work with several firms). */
export default async function GuestLayout({ children }: { children: ReactNode }) {
  const user = await requireUser(GUEST_HOME_PATH);
  return (
    <div className="min-h-screen">
      <AppHeader home={GUEST_HOME_PATH} links={[{ href: "/account/notifications", label: "Email settings" }]}>
        <span className="text-sm text-slate-600" data-testid="signed-in-as">
          {user.name ?? user.email}
        </span>
        <form action={signOutAction}>
          <Button type="submit" variant="ghost" className="-ml-4 md:ml-0">
            Sign out
          </Button>
        </form>
      </AppHeader>
      <main className="mx-auto max-w-3xl px-4 py-6 md:py-8">{children}</main>
    </div>
  );
}
