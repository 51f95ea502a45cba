"use client";

import { CheckCircle2, RotateCcw, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { useRunAction } from "@/components/portal-workspace/use-run-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { FieldBuilder, fromStored, toPosted } from "./field-builder";
import { SignatureFields, type PdfOption } from "./signature-fields";
import type { FileActions } from "@/components/files/actions";

/** Complete or reopen a task. */
export function TaskStatusButton({ portalId, taskId, done, action }: { portalId: string; taskId: string; done: boolean; action: BoundAction }) {
  const { run, pending } = useRunAction(action);
  return (
    <Button
      variant={done ? "secondary" : "primary"}
      disabled={pending}
      onClick={() => void run({ portalId, taskId, status: done ? "open" : "done" }, done ? "Task reopened" : "Task completed")}
      data-testid={done ? "reopen-task" : "complete-task"}
    >
      {done ? <RotateCcw aria-hidden size={16} /> : <CheckCircle2 aria-hidden size={16} />}
      {done ? "Reopen" : "Complete"}
    </Button>
  );
}

/** Delete a task (asks first), then back to the task list. */
export function DeleteTaskButton({
  portalId,
  taskId,
  title,
  action,
  backTo,
}: {
  portalId: string;
  taskId: string;
  title: string;
  action: BoundAction;
  backTo: string;
}) {
  const { run, pending } = useRunAction(action);
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" data-testid="delete-task">
          <Trash2 aria-hidden size={16} />
          Delete
        </Button>
      }
      title={`Delete "${title}"?`}
      description="The task leaves the portal for everyone and its reminders stop. Files uploaded for it stay in the portal."
      confirmLabel="Delete task"
      pending={pending}
      onConfirm={async () => {
        if (await run({ portalId, taskId }, "Task deleted")) router.push(backTo);
      }}
    />
  );
}

/** Replace a Fill Form task's fields (until it has answers). */
export function EditFieldsDialog({
  portalId,
  taskId,
  action,
  initial,
}: {
  portalId: string;
  taskId: string;
  action: BoundAction;
  initial: { label: string; kind: string; required: boolean; options: string[] }[];
}) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => fromStored(initial));
  const { state, onSubmit, pending } = useFormResult(action, () => setOpen(false));
  return (
    <Dialog open={open} onOpenChange={setOpen} wide title="Edit form fields" trigger={<Button variant="secondary">Edit fields</Button>}>
      <form onSubmit={onSubmit} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        <input type="hidden" name="taskId" value={taskId} />
        <input type="hidden" name="fields" value={toPosted(fields)} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <FieldBuilder fields={fields} onChange={setFields} error={state.fieldErrors?.fields} />
        <DialogFooter>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save fields"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

/** Choose (another) PDF to sign and where the signature goes. */
export function EditDocumentDialog({
  files,
  portalId,
  taskId,
  action,
  pdfs,
  current,
}: {
  files: FileActions;
  portalId: string;
  taskId: string;
  action: BoundAction;
  pdfs: PdfOption[];
  current?: string;
}) {
  const [open, setOpen] = useState(false);
  const { state, onSubmit, pending } = useFormResult(action, () => setOpen(false));
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Document to sign"
      trigger={<Button variant="secondary">{current ? "Change document" : "Choose document"}</Button>}
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        <input type="hidden" name="taskId" value={taskId} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <SignatureFields files={files} portalId={portalId} pdfs={pdfs} errors={state.fieldErrors ?? {}} initialFileId={current} />
        <DialogFooter>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
