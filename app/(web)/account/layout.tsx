import type { ReactNode } from "react";
import { currentUser } from "@/lib/auth/session";
import { ViewerTimeZone } from "../viewer-time-zone";

/** The user's own pages (each asks for the session itself). */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return <ViewerTimeZone userId={user?.id ?? null}>{children}</ViewerTimeZone>;
}
