import type { Metadata } from "next";
import { AccountPage } from "@/components/account/account-page";
import { ACCOUNT_PAGES } from "@/components/account/account-pages";
import { ActionForm } from "@/components/settings/action-form";
import { Card } from "@/components/ui/card";
import { describeDevice } from "@/lib/auth/describe-device";
import { currentSessionId, requireUser } from "@/lib/auth/session";
import { listActiveSessions } from "@/lib/auth/user-sessions";
import { endOtherSessionsAction, endSessionAction } from "./actions";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: ACCOUNT_PAGES.sessions.name };

/** Every browser the user is signed in with: device, address, last seen; each can be signed out. */
export default async function SessionsPage() {
  const user = await requireUser("/account/sessions");
  const current = await currentSessionId();
  const sessions = await listActiveSessions({ userId: user.id, currentSessionId: current });
  const others = sessions.filter((s) => !s.current);
  return (
    <AccountPage
      title={ACCOUNT_PAGES.sessions.name}
      intro={<>The browsers signed in as {user.email}. Sign out any you do not recognise, then change your password.</>}
    >
      <Card>
        <ul className="divide-y divide-line-soft" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session">
              <div className="text-sm">
                <p className="font-medium">
                  {describeDevice(s.userAgent)}
                  {s.current ? <span className="ml-2 rounded bg-muted px-1.5 py-0.5 text-xs text-fg-2">This browser</span> : null}
                </p>
                <p className="text-fg-muted">
                  {s.ip || "Unknown address"} · last seen <Time value={s.lastSeenAt} format="relative" /> · signed in <Time value={s.createdAt} />
                </p>
              </div>
              {s.current ? null : (
                <ActionForm
                  action={endSessionAction}
                  submitLabel="Sign out"
                  variant="secondary"
                  inline
                  label={`Sign out ${describeDevice(s.userAgent)}, ${s.ip}`}
                >
                  <input type="hidden" name="sessionId" value={s.id} />
                </ActionForm>
              )}
            </li>
          ))}
        </ul>
      </Card>
      {others.length > 0 ? (
        <ActionForm action={endOtherSessionsAction} submitLabel="Sign out of all other sessions" variant="secondary" />
      ) : (
        <p className="text-sm text-fg-muted">No other browser is signed in.</p>
      )}
    </AccountPage>
  );
}
