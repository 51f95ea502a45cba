import type { ReactNode } from "react";
import { FieldError } from "@/components/ui/field-error";

/** The one height of single-line controls: text inputs, selects and the buttons beside them (40 px). */
export const CONTROL_HEIGHT = "h-10";
/** The compact height (32 px) of a small button and of an inline input paired with one. */
export const CONTROL_HEIGHT_SM = "h-8";

/** The classes of a text control (input, textarea, select), red-bordered when it has an error. */
export function controlClasses(error: string | undefined, className = ""): string {
  return `block w-full rounded-md border bg-surface px-3 py-2 focus:border-brand-ink focus:outline-none focus:ring-1 focus:ring-brand-ink ${error ? "border-danger-edge" : "border-line-strong"} ${className}`;
}

/** The aria-describedby of a control with an optional hint and error (the ids Field gives them). */
export function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** A labelled form control with its hint and error message under it (Input, Textarea, Select). */
export function Field({
  label,
  id,
  hint,
  error,
  hideLabel = false,
  children,
}: {
  label: string;
  id: string;
  hint?: string;
  error?: string;
  hideLabel?: boolean;
  children: ReactNode;
}) {
  return (
    <label htmlFor={id} className="block text-sm">
      <span className={hideLabel ? "sr-only" : "mb-1 block font-medium text-fg-2"}>{label}</span>
      {children}
      {hint ? (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-fg-subtle">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}
