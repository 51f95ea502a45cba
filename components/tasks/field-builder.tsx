"use client";

import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";

import { KIND_LABELS, type FieldKind } from "./labels";
import { ReorderButtons } from "./reorder-buttons";

// The Fill Form field builder: the fields as the domain stores them (lib/tasks/form-fields.ts).

export interface BuilderField {
  key: number;
  label: string;
  kind: FieldKind;
  required: boolean;
  /** One option a line (single choice only). */
  options: string;
}

let nextKey = 1;
export const newField = (kind: FieldKind = "text"): BuilderField => ({ key: nextKey++, label: "", kind, required: false, options: "" });

export function fromStored(fields: { label: string; kind: string; required: boolean; options: string[] }[]): BuilderField[] {
  return fields.map((f) => ({ key: nextKey++, label: f.label, kind: f.kind as FieldKind, required: f.required, options: f.options.join("\n") }));
}

/** The fields as posted (JSON): options split by line, blank lines dropped. */
export function toPosted(fields: BuilderField[]): string {
  return JSON.stringify(
    fields.map((f) => ({
      label: f.label,
      kind: f.kind,
      required: f.required,
      options:
        f.kind === "select"
          ? f.options
              .split("\n")
              .map((o) => o.trim())
              .filter(Boolean)
          : [],
    })),
  );
}

export function FieldBuilder({ fields, onChange, error }: { fields: BuilderField[]; onChange: (fields: BuilderField[]) => void; error?: string }) {
  const update = (key: number, patch: Partial<BuilderField>) => onChange(fields.map((f) => (f.key === key ? { ...f, ...patch } : f)));
  const move = (index: number, by: number) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };
  return (
    <fieldset className="space-y-3" data-testid="field-builder">
      <legend className="mb-1 text-sm font-medium text-fg-2">Form fields</legend>
      {fields.length === 0 ? <p className="text-sm text-fg-muted">No fields yet: add the first question the client should answer.</p> : null}
      <ol className="space-y-3">
        {fields.map((f, i) => (
          <li key={f.key} className="rounded-md border border-line p-3" data-testid="builder-field">
            <div className="grid gap-2 sm:grid-cols-[1fr_10rem]">
              <Input
                id={`field-${f.key}-label`}
                label={`Field ${i + 1} label`}
                value={f.label}
                onChange={(e) => update(f.key, { label: e.target.value })}
                required
              />
              <Select
                id={`field-${f.key}-kind`}
                label={`Field ${i + 1} type`}
                value={f.kind}
                onChange={(e) => update(f.key, { kind: e.target.value as FieldKind })}
                options={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
              />
            </div>
            {f.kind === "select" ? (
              <Textarea
                id={`field-${f.key}-options`}
                label="Choices"
                hint="One a line, at least two"
                rows={3}
                className="mt-2"
                value={f.options}
                onChange={(e) => update(f.key, { options: e.target.value })}
              />
            ) : null}
            <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
              <Checkbox
                id={`field-${f.key}-required`}
                label={`Field ${i + 1} required`}
                checked={f.required}
                onChange={(e) => update(f.key, { required: e.target.checked })}
              />
              <ReorderButtons
                index={i}
                count={fields.length}
                name={`field ${i + 1}`}
                onMove={move}
                onRemove={() => onChange(fields.filter((x) => x.key !== f.key))}
              />
            </div>
          </li>
        ))}
      </ol>
      <Button type="button" size="sm" variant="secondary" onClick={() => onChange([...fields, newField()])}>
        <Plus aria-hidden size={14} />
        Add field
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
