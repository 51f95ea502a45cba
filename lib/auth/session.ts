import { redirect } from "next/navigation";
import { auth } from "@/lib/auth";
import { signInPath } from "./safe-return";

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/** The signed-in user, or null. Web code only: domain functions take the user as input. */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  return { id: user.id, email: user.email, name: user.name ?? null };
}

/** The signed-in user; otherwise a redirect to sign-in that comes back to `returnTo`. */
export async function requireUser(returnTo = "/"): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}

/** The UserSession the request is signed in with, or null. Web code only. */
export async function currentSessionId(): Promise<string | null> {
  return (await auth())?.sessionId ?? null;
}
