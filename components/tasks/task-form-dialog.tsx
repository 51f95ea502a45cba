"use client";

import { Plus } from "lucide-react";
import { useState, type ReactNode } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useTimeZone } from "@/components/ui/time";
import { fromZonedInput, toZonedInput } from "@/lib/time/format";
import { taskActionTypes } from "@/lib/events/task-names";
import { ACTION_HINTS, ACTION_LABELS, REMINDER_HINT } from "./labels";
import { FieldBuilder, newField, toPosted, type BuilderField } from "./field-builder";
import { SignatureFields, type PdfOption } from "./signature-fields";
import type { FileActions } from "@/components/files/actions";
import { SignerPicker, type SignerChoice } from "./signer-picker";

export interface AssigneeChoice {
  userId: string;
  name: string | null;
  email: string;
}

const who = (a: AssigneeChoice) => (a.name ? `${a.name} (${a.email})` : a.email);

function AssigneePicker({ guests, members, error }: { guests: AssigneeChoice[]; members: AssigneeChoice[]; error?: string }) {
  const group = (title: string, prefix: string, list: AssigneeChoice[], empty: string) => (
    <div>
      <p className="text-xs font-medium tracking-wide text-fg-subtle uppercase">{title}</p>
      {list.length === 0 ? <p className="text-sm text-fg-muted">{empty}</p> : null}
      <ul className="mt-1 space-y-1">
        {list.map((a) => (
          <li key={a.userId}>
            <Checkbox id={`assignee-${prefix}-${a.userId}`} name="assignees" value={`${prefix}:${a.userId}`} label={who(a)} />
          </li>
        ))}
      </ul>
    </div>
  );
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium text-fg-2">Assignees</legend>
      <div className="grid max-h-48 gap-3 overflow-y-auto rounded-md border border-line p-3 sm:grid-cols-2">
        {group("Guests of this portal", "guest", guests, "No guests yet: invite one in the Guests tab.")}
        {group("Members", "member", members, "No members.")}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The task's title, description, due date and reminders: the same fields in create and edit. */
function CommonFields({
  errors,
  initial,
}: {
  errors: Partial<Record<string, string>>;
  initial?: { title: string; description: string; dueDate: Date | null; sendReminder: boolean };
}) {
  // The picker shows wall time in the viewer's zone, which need not be the browser's.
  const zone = useTimeZone();
  const [due, setDue] = useState(() => (initial?.dueDate ? toZonedInput(new Date(initial.dueDate), zone) : ""));
  const [remind, setRemind] = useState(initial?.sendReminder ?? false);
  return (
    <>
      <Input id="task-title" name="title" label="Title" required maxLength={500} defaultValue={initial?.title} error={errors.title} />
      <Textarea
        id="task-description"
        name="description"
        label="Description"
        rows={3}
        maxLength={10000}
        defaultValue={initial?.description}
        error={errors.description}
      />
      <Input
        id="task-due"
        label="Due date"
        type="datetime-local"
        value={due}
        onChange={(e) => {
          setDue(e.target.value);
          if (!e.target.value) setRemind(false);
        }}
        hint={`Optional; reminders need one. In your time zone, ${zone}.`}
        error={errors.due_date}
      />
      <input type="hidden" name="due_date" value={due ? (fromZonedInput(due, zone)?.toISOString() ?? due) : ""} />
      <Checkbox
        id="task-reminders"
        name="send_reminder"
        label="Send reminders"
        description={due ? REMINDER_HINT : "Set a due date first"}
        checked={remind}
        disabled={!due}
        onChange={(e) => setRemind(e.target.checked)}
      />
      {errors.send_reminder ? (
        <p role="alert" className="text-sm text-danger">
          {errors.send_reminder}
        </p>
      ) : null}
    </>
  );
}

function Footer({ pending, label, onCancel }: { pending: boolean; label: string; onCancel: () => void }) {
  return (
    <DialogFooter>
      <Button type="button" variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : label}
      </Button>
    </DialogFooter>
  );
}

/** Guests and members as possible signers (someone both a member and a guest signs as a member). */
function signerChoices(guests: AssigneeChoice[], members: AssigneeChoice[]): SignerChoice[] {
  const memberIds = new Set(members.map((m) => m.userId));
  return [
    ...guests.filter((g) => !memberIds.has(g.userId)).map((g) => ({ ...g, kind: "guest" as const })),
    ...members.map((m) => ({ ...m, kind: "member" as const })),
  ];
}

/** "New task": any of the five action types, with assignees, due date, reminders, form fields or the document to sign. */
export function CreateTaskDialog({
  files,
  portalId,
  action,
  guests,
  members,
  pdfs,
  trigger,
}: {
  files: FileActions;
  portalId: string;
  action: BoundAction;
  guests: AssigneeChoice[];
  members: AssigneeChoice[];
  pdfs: PdfOption[];
  trigger?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<(typeof taskActionTypes)[number]>("General");
  const [fields, setFields] = useState<BuilderField[]>(() => [newField()]);
  const [formKey, setFormKey] = useState(0);
  const { state, onSubmit, pending } = useFormResult(action, () => {
    setOpen(false);
    setFields([newField()]);
    setType("General");
    setFormKey((k) => k + 1);
  });
  const errors = state.fieldErrors ?? {};

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      wide
      title="New task"
      description="What the client (or a colleague) should do in this portal."
      trigger={
        trigger ?? (
          <Button data-testid="new-task">
            <Plus aria-hidden size={16} />
            New task
          </Button>
        )
      }
    >
      <form key={formKey} onSubmit={onSubmit} className="space-y-4" data-testid="task-form">
        <input type="hidden" name="portalId" value={portalId} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <Select
          id="task-type"
          name="action_type"
          label="Type"
          value={type}
          onChange={(e) => setType(e.target.value as typeof type)}
          options={taskActionTypes.map((t) => ({ value: t, label: ACTION_LABELS[t] }))}
        />
        <p className="-mt-2 text-xs text-fg-muted">{ACTION_HINTS[type]}</p>
        <CommonFields errors={errors} />
        <AssigneePicker guests={guests} members={members} error={errors.assignees} />
        {type === "Fill Form" ? (
          <>
            <FieldBuilder fields={fields} onChange={setFields} error={errors.fields} />
            <input type="hidden" name="fields" value={toPosted(fields)} />
          </>
        ) : null}
        {type === "Sign Document" ? (
          <>
            <SignatureFields files={files} portalId={portalId} pdfs={pdfs} errors={errors} />
            <SignerPicker choices={signerChoices(guests, members)} error={errors.signers} />
          </>
        ) : null}
        <Footer pending={pending} label="Create task" onCancel={() => setOpen(false)} />
      </form>
    </Dialog>
  );
}

/** "Edit": title, description, due date and reminders of an existing task. */
export function EditTaskDialog({
  portalId,
  taskId,
  action,
  initial,
}: {
  portalId: string;
  taskId: string;
  action: BoundAction;
  initial: { title: string; description: string; dueDate: Date | null; sendReminder: boolean };
}) {
  const [open, setOpen] = useState(false);
  const { state, onSubmit, pending } = useFormResult(action, () => setOpen(false));
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Edit task"
      trigger={
        <Button variant="secondary" data-testid="edit-task">
          Edit
        </Button>
      }
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        <input type="hidden" name="taskId" value={taskId} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <CommonFields errors={state.fieldErrors ?? {}} initial={initial} />
        <Footer pending={pending} label="Save" onCancel={() => setOpen(false)} />
      </form>
    </Dialog>
  );
}
