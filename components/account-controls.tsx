import { ACCOUNT_LINKS } from "@/components/account/account-pages";
import { Button } from "@/components/ui/button";
import { HeaderMenu } from "./header-menu";

/**
 * Who is signed in, as the menu of their own pages (notifications, sessions, two-factor), and Sign
 * out: the end of every signed-in header (members' and clients'). `signOut` is the sign-out server
 * action (app/sign-in/actions.ts), passed in by the layout.
 */
export function AccountControls({ user, signOut }: { user: { name?: string | null; email?: string | null }; signOut: () => Promise<void> }) {
  return (
    <>
      <HeaderMenu
        id="account-menu"
        testId="account-menu"
        label={
          <>
            <span className="sr-only">Your account: </span>
            <span className="max-w-48 truncate" data-testid="signed-in-as">
              {user.name ?? user.email}
            </span>
          </>
        }
        links={ACCOUNT_LINKS}
      />
      <form action={signOut}>
        <Button type="submit" variant="ghost" className="-ml-4 md:ml-0">
          Sign out
        </Button>
      </form>
    </>
  );
}
