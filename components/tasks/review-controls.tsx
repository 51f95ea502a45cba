"use client";

import { CheckCircle2, Undo2 } from "lucide-react";
import { useState } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { useRunAction } from "@/components/portal-workspace/use-run-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/textarea";
import { useToast } from "@/components/ui/toast";

/** Accept what the client sent, or send it back with a reason (the task reopens, the client is emailed). */
export function ReviewControls({ portalId, taskId, accepted, action }: { portalId: string; taskId: string; accepted: boolean; action: BoundAction }) {
  const { run, pending } = useRunAction(action);
  const [open, setOpen] = useState(false);
  const toast = useToast();
  // A send-back reopens the task and the page no longer shows these controls: the toast is raised
  // when the action answers, not after the next render (which this component does not see).
  const sendBack: BoundAction = async (prev, data) => {
    const { message, ...state } = await action(prev, data);
    if (state.done && message) toast(message);
    return state;
  };
  const { state, onSubmit, pending: sending } = useFormResult(sendBack, () => setOpen(false));
  return (
    <div className="flex flex-wrap gap-2">
      {accepted ? null : (
        <Button
          disabled={pending}
          data-testid="accept-task"
          onClick={() => void run({ portalId, taskId, decision: "accept" }, "Accepted. The request stays done; nothing is sent to the client.")}
        >
          <CheckCircle2 aria-hidden size={16} />
          Accept
        </Button>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Send back to the client"
        description="The request opens again for the client, who gets an email with your reason."
        trigger={
          <Button variant="secondary" data-testid="return-task">
            <Undo2 aria-hidden size={16} />
            Send back
          </Button>
        }
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <input type="hidden" name="portalId" value={portalId} />
          <input type="hidden" name="taskId" value={taskId} />
          <input type="hidden" name="decision" value="return" />
          {state.error ? <Alert>{state.error}</Alert> : null}
          <Textarea
            label="What is missing or wrong"
            id={`reason-${taskId}`}
            name="reason"
            rows={4}
            required
            maxLength={2000}
            placeholder="The statement is for the wrong month: please send March."
            error={state.fieldErrors?.reason}
          />
          <DialogFooter>
            <Button type="submit" disabled={sending}>
              {sending ? "Sending…" : "Send back"}
            </Button>
          </DialogFooter>
        </form>
      </Dialog>
    </div>
  );
}
