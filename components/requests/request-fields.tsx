"use client";

import { useState } from "react";
import { FieldBuilder, newField, toPosted, type BuilderField } from "@/components/tasks/field-builder";
import { ACTION_HINTS, ACTION_LABELS, REMINDER_HINT } from "@/components/tasks/labels";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useTimeZone } from "@/components/ui/time";
import { fromZonedInput } from "@/lib/time/format";
import { taskActionTypes } from "@/lib/events/task-names";

// A request to be made later, once per portal or per period (lib/requests/schemas.ts RequestSpec):
// the task's type, title, description, due date (none, a date, or days after the task is made),
// reminders, and its form fields or the PDF to sign. Posted as one JSON field, `spec`.

type ActionType = (typeof taskActionTypes)[number];
type DueKind = "none" | "date" | "relative";

export interface DocumentOption {
  id: string;
  name: string;
}

export function RequestFields({
  errors,
  documents,
  anchor,
}: {
  errors: Partial<Record<string, string>>;
  /** The PDFs a Sign Document may ask for; none: the type is not offered. */
  documents: DocumentOption[];
  /** What a relative due date counts from, for its label ("sending", "each occurrence"). */
  anchor: string;
}) {
  const [type, setType] = useState<ActionType>("General");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [dueKind, setDueKind] = useState<DueKind>("none");
  const [date, setDate] = useState("");
  const [days, setDays] = useState("14");
  const [remind, setRemind] = useState(false);
  const [fields, setFields] = useState<BuilderField[]>(() => [newField()]);
  const [documentId, setDocumentId] = useState("");
  const types = documents.length > 0 ? taskActionTypes : taskActionTypes.filter((t) => t !== "Sign Document");

  // A date picked is due at the end of that day in the viewer's zone.
  const zone = useTimeZone();
  const due =
    dueKind === "date" && date
      ? { kind: "date", date: fromZonedInput(`${date}T23:59:59`, zone)?.toISOString() ?? date }
      : dueKind === "relative"
        ? { kind: "relative", days: Number(days) }
        : { kind: "none" };
  const spec = {
    title,
    description,
    action_type: type,
    due,
    send_reminder: remind && due.kind !== "none",
    form_fields: type === "Fill Form" ? (JSON.parse(toPosted(fields)) as unknown[]) : [],
    document_file_id: type === "Sign Document" && documentId ? documentId : null,
  };

  return (
    <>
      <input type="hidden" name="spec" value={JSON.stringify(spec)} />
      <Select
        id="request-type"
        label="Type"
        value={type}
        onChange={(e) => setType(e.target.value as ActionType)}
        options={types.map((t) => ({ value: t, label: ACTION_LABELS[t] }))}
      />
      <p className="-mt-2 text-xs text-fg-muted">
        {type === "Sign Document" ? "A PDF from your templates; each portal gets its own copy to sign." : ACTION_HINTS[type]}
      </p>
      <Input id="request-title" label="Title" required maxLength={500} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
      <Textarea
        id="request-description"
        label="Description"
        rows={3}
        maxLength={10000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
      />
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-fg-2">Due date</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {(
            [
              ["none", "None"],
              ["relative", `Days after ${anchor}`],
              ["date", "On a date"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-1.5">
              <input type="radio" name="due-kind" value={value} checked={dueKind === value} onChange={() => setDueKind(value)} className="size-4" />
              {label}
            </label>
          ))}
        </div>
        {dueKind === "relative" ? (
          <Input id="request-due-days" label="Days" type="number" min={0} max={366} value={days} onChange={(e) => setDays(e.target.value)} error={errors.due} />
        ) : null}
        {dueKind === "date" ? (
          <Input
            id="request-due-date"
            label="Date (end of day)"
            hint={`In your time zone, ${zone}.`}
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            error={errors.due}
          />
        ) : null}
      </fieldset>
      <Checkbox
        id="request-reminders"
        label="Send reminders"
        description={dueKind === "none" ? "Set a due date first" : REMINDER_HINT}
        checked={remind && dueKind !== "none"}
        disabled={dueKind === "none"}
        onChange={(e) => setRemind(e.target.checked)}
      />
      {errors.send_reminder ? (
        <p role="alert" className="text-sm text-danger">
          {errors.send_reminder}
        </p>
      ) : null}
      {type === "Fill Form" ? <FieldBuilder fields={fields} onChange={setFields} error={errors.form_fields} /> : null}
      {type === "Sign Document" ? (
        <Select
          id="request-document"
          label="PDF to sign"
          placeholder="Choose a PDF"
          value={documentId}
          onChange={(e) => setDocumentId(e.target.value)}
          options={documents.map((d) => ({ value: d.id, label: d.name }))}
          error={errors.document_file_id}
        />
      ) : null}
    </>
  );
}
