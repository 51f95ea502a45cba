"use client";

import { Mail, UserPlus, UserX } from "lucide-react";
import { useState } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { useRunAction } from "@/components/portal-workspace/use-run-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { PermissionList, type Permissions } from "./permission-list";

/** Invite one or several guests; they get the organization's default permissions (shown). */
export function InviteGuestsDialog({ portalId, action, defaults }: { portalId: string; action: BoundAction; defaults: Permissions }) {
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const { state, onSubmit, pending } = useFormResult(action, () => {
    setOpen(false);
    setFormKey((k) => k + 1);
  });
  const errors = state.fieldErrors ?? {};
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Invite guests"
      description="Each address gets an email with a link to this portal, valid for 14 days. Inviting someone again sends a new link."
      trigger={
        <Button data-testid="invite-guests">
          <UserPlus aria-hidden size={16} />
          Invite guests
        </Button>
      }
    >
      <form key={formKey} onSubmit={onSubmit} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <Textarea
          id="guest-emails"
          name="emails"
          label="Email addresses"
          rows={3}
          required
          placeholder="client@example.com"
          hint="One or several (up to 100), separated by commas or new lines"
          error={errors.emails}
        />
        <Input id="guest-name" name="name" label="Name (optional, one guest only)" maxLength={200} error={errors.name} />
        <fieldset className="rounded-md border border-line bg-subtle px-3 pt-1 pb-2 text-sm" aria-describedby="guest-permissions-hint">
          <legend className="px-1 font-medium text-fg-2">Permissions</legend>
          <p id="guest-permissions-hint" className="text-xs text-fg-muted">
            The organization&apos;s default guest permissions, set in Settings → Guest defaults.
          </p>
          <PermissionList permissions={defaults} described />
        </fieldset>
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Sending…" : "Send invitations"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

/** Resend the invitation, or remove the guest (asks first: access ends at once). */
export function GuestRowActions({
  portalId,
  guestId,
  email,
  accepted,
  resend,
  remove,
}: {
  portalId: string;
  guestId: string;
  email: string;
  accepted: boolean;
  resend: BoundAction;
  remove: BoundAction;
}) {
  const resending = useRunAction(resend);
  const removing = useRunAction(remove);
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-wrap gap-1">
      <Button
        size="sm"
        variant="secondary"
        disabled={resending.pending}
        onClick={() => void resending.run({ portalId, guestId }, `New invitation sent to ${email}`)}
        aria-label={`${accepted ? "New link" : "Resend"} for ${email}`}
      >
        <Mail aria-hidden size={14} />
        {accepted ? "New link" : "Resend"}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button size="sm" variant="ghost" aria-label={`Remove ${email}`} data-testid="remove-guest">
            <UserX aria-hidden size={14} />
            Remove
          </Button>
        }
        title={`Remove ${email}?`}
        description="Their access to this portal ends at once and their invitation links stop working. Files they uploaded stay."
        confirmLabel="Remove guest"
        pending={removing.pending}
        onConfirm={async () => {
          if (await removing.run({ portalId, guestId }, `${email} removed`)) setOpen(false);
        }}
      />
    </div>
  );
}
