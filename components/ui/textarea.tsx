import type { TextareaHTMLAttributes } from "react";
import { controlClasses, describedBy, Field } from "@/components/ui/field";

export function Textarea({
  label,
  id,
  error,
  hint,
  className = "",
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; id: string; error?: string; hint?: string }) {
  return (
    <Field label={label} id={id} hint={hint} error={error}>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={controlClasses(error, className)}
        {...props}
      />
    </Field>
  );
}
