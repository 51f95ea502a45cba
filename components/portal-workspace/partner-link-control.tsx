"use client";

import { Link2 } from "lucide-react";
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import type { FormAction, FormState } from "@/lib/web/form-state";
import { PartnerBadge, type PartnerLinkView } from "./partner-badge";

type PartnerIdState = FormState<{ partnerId: string }> & { done?: number };

/**
 * The portal header's partner slot: the link's badge, and for the firm a dialog to set or clear
 * the portal's 6-digit partner id (the same change as the API's PATCH externalSystemIds.partner).
 */
export function PartnerLinkControl({
  portalId,
  partnerId,
  link,
  action,
}: {
  portalId: string;
  partnerId: string | null;
  link: PartnerLinkView | null;
  action: FormAction<PartnerIdState>;
}) {
  const [open, setOpen] = useState(false);
  const [state, formAction, pending] = useActionState(async (prev: PartnerIdState, data: FormData) => {
    const next = await action(prev, data);
    if (next.done) setOpen(false);
    return next;
  }, {});
  const [value, setValue] = useState(partnerId ?? "");
  const problem = value.trim() !== "" && !/^[0-9]{6}$/.test(value.trim()) ? "A partner id is exactly 6 digits" : undefined;

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <PartnerBadge link={link} />
      <Dialog
        title="Partner id"
        description="The partner's 6-digit customer id. Saving it links the portal after the partner confirms it; clearing it unlinks the portal."
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button type="button" variant="ghost" className="px-2 py-1 text-xs">
            <Link2 aria-hidden className="mr-1 h-3.5 w-3.5" />
            {partnerId ? "Change partner id" : "Link to partner"}
          </Button>
        }
      >
        <form action={formAction} className="space-y-4">
          <input type="hidden" name="portalId" value={portalId} />
          {state.error ? <Alert>{state.error}</Alert> : null}
          <Input
            label="Partner customer id"
            id={`partner-id-${portalId}`}
            name="partnerId"
            inputMode="numeric"
            autoComplete="off"
            placeholder="123456"
            maxLength={6}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={problem ?? state.fieldErrors?.partnerId}
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="ghost">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={pending || problem !== undefined}>
              {pending ? "Saving…" : value.trim() === "" && partnerId ? "Clear partner id" : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </Dialog>
    </span>
  );
}
