import type { ReactNode } from "react";
import { AccountControls } from "@/components/account-controls";
import { signOutAction } from "@/app/sign-in/actions";
import { MAIN_ID } from "@/components/main-id";
import { AppHeader } from "@/components/app-header";
import { requireUser } from "@/lib/auth/session";
import { GUEST_HOME_PATH } from "@/lib/links";
import { ViewerTimeZone } from "../viewer-time-zone";

/** The client's home: outside any one organization (a client may work with several firms). */
export default async function GuestLayout({ children }: { children: ReactNode }) {
  const user = await requireUser(GUEST_HOME_PATH);
  return (
    <div className="min-h-screen">
      <AppHeader
        home={GUEST_HOME_PATH}
        links={[
          { href: "/account/notifications", label: "Email settings" },
          { href: "/account/sessions", label: "Signed-in sessions" },
          { href: "/account/two-factor", label: "Two-factor authentication" },
        ]}
      >
        <AccountControls user={user} signOut={signOutAction} />
      </AppHeader>
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-3xl px-4 py-6 md:py-8">
        <ViewerTimeZone userId={user.id}>{children}</ViewerTimeZone>
      </main>
    </div>
  );
}
