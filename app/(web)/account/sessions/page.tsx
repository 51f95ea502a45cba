import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/settings/action-form";
import { Card } from "@/components/ui/card";
import { listUserOrganizations } from "@/lib/access/organizations";
import { describeDevice } from "@/lib/auth/describe-device";
import { currentSessionId, requireUser } from "@/lib/auth/session";
import { listActiveSessions } from "@/lib/auth/user-sessions";
import { endOtherSessionsAction, endSessionAction } from "./actions";

export const metadata: Metadata = { title: "Signed-in sessions" };

const when = (d: Date) => d.toISOString().replace("T", " ").slice(0, 16) + " UTC";

/** Every browser the user is signed in with: device, address, last seen; each can be signed out. */
export default async function SessionsPage() {
  const user = await requireUser("/account/sessions");
  const current = await currentSessionId();
  const [sessions, orgs] = await Promise.all([listActiveSessions({ userId: user.id, currentSessionId: current }), listUserOrganizations(user.id)]);
  const home = orgs[0] ? `/org/${orgs[0].orgId}` : "/";
  const others = sessions.filter((s) => !s.current);
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:py-8">
      <Link href={home} className="text-sm text-brand underline">
        Back to Client Portals
      </Link>
      <div>
        <h1 className="text-2xl font-semibold">Signed-in sessions</h1>
        <p className="mt-1 text-sm text-slate-600">The browsers signed in as {user.email}. Sign out any you do not recognise, then change your password.</p>
      </div>
      <Card>
        <ul className="divide-y divide-slate-100" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session">
              <div className="text-sm">
                <p className="font-medium">
                  {describeDevice(s.userAgent)}
                  {s.current ? <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">This browser</span> : null}
                </p>
                <p className="text-slate-600">
                  {s.ip || "Unknown address"} · last seen {when(s.lastSeenAt)} · signed in {when(s.createdAt)}
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
        <p className="text-sm text-slate-600">No other browser is signed in.</p>
      )}
    </main>
  );
}
