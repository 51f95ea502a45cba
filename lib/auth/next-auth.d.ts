import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
    /** The UserSession this browser is signed in with (lib/auth/user-sessions.ts). */
    sessionId?: string;
  }
}
