import { Button } from "@/components/ui/button";
import { signOutAction } from "@/app/sign-in/actions";

/** Who is signed in, and Sign out: the end of every signed-in header (members' and clients'). */
export function AccountControls({ user }: { user: { name?: string | null; email?: string | null } }) {
  return (
    <>
      <span className="text-sm text-slate-600" data-testid="signed-in-as">
        {user.name ?? user.email}
      </span>
      <form action={signOutAction}>
        <Button type="submit" variant="ghost" className="-ml-4 md:ml-0">
          Sign out
        </Button>
      </form>
    </>
  );
}
