import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/settings/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Table, Td, Th } from "@/components/ui/table";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listMembers } from "@/lib/members/manage-members";
import { listMemberInvitations } from "@/lib/members/member-invitations";
import { changeRoleAction, inviteMemberAction, removeMemberAction, revokeInvitationAction } from "./actions";
import { Time } from "@/components/ui/time";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.members.name };

const ROLES = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

export default async function MembersPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/members`);
  if (!viewer || !mayOrg(viewer, "manageMembers")) notFound();
  const [members, invitations] = await Promise.all([listMembers({ viewer }), listMemberInvitations({ viewer })]);
  const invite = inviteMemberAction.bind(null, orgId);
  const changeRole = changeRoleAction.bind(null, orgId);
  const remove = removeMemberAction.bind(null, orgId);
  const revoke = revokeInvitationAction.bind(null, orgId);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.members.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          Members see and work in every portal; admins also manage these settings. Removing someone ends their access and their connected apps at once.
        </p>
      </div>
      <Card title="Invite a colleague">
        <ActionForm action={invite} submitLabel="Send invitation" inline>
          <div className="min-w-56 flex-1">
            <Input label="Email address" id="invite-email" name="email" type="email" required autoComplete="off" />
          </div>
          <Select label="Role" id="invite-role" name="role" options={ROLES} defaultValue="member" />
        </ActionForm>
      </Card>
      {invitations.length > 0 ? (
        <Table caption="Pending invitations" showCaption>
          <thead>
            <tr>
              <Th>Email</Th>
              <Th>Role</Th>
              <Th>Expires</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line-soft">
            {invitations.map((i) => (
              <tr key={i.id} data-testid="invitation-row">
                <Td className="font-medium">{i.email}</Td>
                <Td stacked="inline">{ROLES.find((r) => r.value === i.role)?.label ?? i.role}</Td>
                <Td stacked="fill">
                  <span className="sm:hidden" aria-hidden>
                    Expires{" "}
                  </span>
                  <Time value={i.expiresAt} format="date" />
                </Td>
                <Td stacked="end">
                  <ActionForm action={revoke} submitLabel="Withdraw" variant="secondary" inline label={`Withdraw the invitation to ${i.email}`}>
                    <input type="hidden" name="invitationId" value={i.id} />
                  </ActionForm>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      <Table caption="Members" showCaption>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Role</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line-soft">
          {members.map((m) => {
            const who = m.name ?? m.email;
            return (
              <tr key={m.userId} data-testid="member-row" aria-label={m.email}>
                <Td>
                  <p className="font-medium">
                    {who} {m.userId === viewer.userId ? <Badge tone="brand">You</Badge> : null}
                  </p>
                  <p className="text-xs text-fg-muted">{m.email}</p>
                </Td>
                <Td stacked="fill">
                  <ActionForm action={changeRole} submitLabel="Change role" variant="secondary" inline label={`Change role of ${m.email}`}>
                    <input type="hidden" name="userId" value={m.userId} />
                    <Select label={`Role of ${m.email}`} hideLabel id={`role-${m.userId}`} name="role" options={ROLES} defaultValue={m.role} />
                  </ActionForm>
                </Td>
                <Td stacked="end">
                  <ActionForm
                    action={remove}
                    submitLabel="Remove"
                    variant="danger"
                    inline
                    menu={`Actions for ${m.email}`}
                    confirm={{
                      title: `Remove ${m.email}?`,
                      description:
                        "They lose access to this organization at once: their sessions stop working here and their connected apps' access is revoked. You can invite them again later.",
                      confirmLabel: "Remove member",
                    }}
                  >
                    <input type="hidden" name="userId" value={m.userId} />
                  </ActionForm>
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}
