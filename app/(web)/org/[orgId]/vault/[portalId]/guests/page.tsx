import { Users } from "lucide-react";
import { GuestRowActions, InviteGuestsDialog } from "@/components/guests/guest-controls";
import { PermissionList } from "@/components/guests/permission-list";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { getInviteDefaults } from "@/lib/guests/invite-defaults";
import { listPortalGuests } from "@/lib/guests/manage-guests";
import { inviteGuestsAction, removeGuestAction, resendInvitationAction } from "../guest-actions";
import { loadMemberPortal, tabMetadata } from "../load-portal";
import { orNotFound } from "@/lib/web/or-not-found";
import { Time } from "@/components/ui/time";

export const generateMetadata = tabMetadata("Guests");

type Params = { orgId: string; portalId: string };

export default async function GuestsPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  const { viewer } = await loadMemberPortal(orgId, portalId);
  const [guests, defaults] = await orNotFound(Promise.all([listPortalGuests({ viewer, portalId }), getInviteDefaults({ viewer, portalId })]));
  const resend = resendInvitationAction.bind(null, orgId);
  const remove = removeGuestAction.bind(null, orgId);

  return (
    <section aria-labelledby="guests-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="guests-heading" className="text-lg font-semibold">
          Guests
        </h2>
        <InviteGuestsDialog portalId={portalId} action={inviteGuestsAction.bind(null, orgId)} defaults={defaults} />
      </div>
      {guests.length === 0 ? (
        <EmptyState icon={Users} title="No guests yet">
          Invite your client by email: they get a link to this portal, where they see their tasks and the files you share.
        </EmptyState>
      ) : (
        <Table caption="Guests of this portal">
          <thead>
            <tr>
              <Th>Guest</Th>
              <Th>State</Th>
              <Th>Permissions</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line-soft">
            {guests.map((g) => (
              <tr key={g.id} data-testid="guest-row">
                {/* On a phone: the guest and their actions on the first line, then the state and permissions. */}
                <Td stacked="fill">
                  <span className="block font-medium">{g.name ?? g.email}</span>
                  {g.name ? <span className="block text-xs text-fg-muted">{g.email}</span> : null}
                </Td>
                <Td className="whitespace-nowrap max-sm:order-2">
                  {g.state === "accepted" ? <Badge tone="success">Accepted</Badge> : <Badge tone="warning">Invited</Badge>}
                  <span className="mt-1 block text-xs text-fg-muted">
                    {g.state === "accepted" && g.acceptedAt ? (
                      <>
                        Joined <Time value={g.acceptedAt} format="relative" />
                      </>
                    ) : (
                      <>
                        Invited <Time value={g.lastInvitedAt} format="relative" />
                      </>
                    )}
                  </span>
                  <span className="block text-xs text-fg-muted">
                    {g.lastSeenAt ? (
                      <>
                        Last seen <Time value={g.lastSeenAt} format="relative" />
                      </>
                    ) : (
                      "Not seen yet"
                    )}
                  </span>
                </Td>
                <Td className="max-sm:order-2">
                  <PermissionList permissions={g.permissions} compact />
                </Td>
                <Td stacked="end" className="max-sm:order-1">
                  <GuestRowActions portalId={portalId} guestId={g.id} email={g.email} accepted={g.state === "accepted"} resend={resend} remove={remove} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
