import { Button } from "@/components/ui/button";

/**
 * Who is signed in, and Sign out: the end of every signed-in header (members' and clients').
 * `signOut` is the sign-out server action (app/sign-in/actions.ts), passed in by the layout.
 */
export function AccountControls({ user, signOut }: { user: { name?: string | null; email?: string | null }; signOut: () => Promise<void> }) {
  return (
    <>
      <span className="text-sm text-slate-600" data-testid="signed-in-as">
        {user.name ?? user.email}
      </span>
      <form action={signOut}>
        <Button type="submit" variant="ghost" className="-ml-4 md:ml-0">
          Sign out
        </Button>
      </form>
    </>
  );
}
