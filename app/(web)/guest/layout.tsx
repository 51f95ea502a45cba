import type { ReactNode } from "react";
import { signOutAction } from "@/app/sign-in/actions";
import { MAIN_ID } from "@/components/main-id";
import { ClientHeader } from "@/components/signed-in-headers";
import { requireUser } from "@/lib/auth/session";
import { GUEST_HOME_PATH } from "@/lib/links";
import { ViewerTimeZone } from "../viewer-time-zone";

/** The client's home: outside any one organization (a client may work with several firms). */
export default async function GuestLayout({ children }: { children: ReactNode }) {
  const user = await requireUser(GUEST_HOME_PATH);
  return (
    <div className="min-h-screen">
      <ClientHeader user={user} signOut={signOutAction} />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-3xl px-4 py-6 md:py-8">
        <ViewerTimeZone userId={user.id}>{children}</ViewerTimeZone>
      </main>
    </div>
  );
}
