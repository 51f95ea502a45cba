import type { InputHTMLAttributes } from "react";
import { CONTROL_HEIGHT, controlClasses, describedBy, Field } from "@/components/ui/field";

export function Input({
  label,
  id,
  error,
  hint,
  hideLabel = false,
  className = "",
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; error?: string; hint?: string; hideLabel?: boolean }) {
  return (
    <Field label={label} id={id} hint={hint} error={error} hideLabel={hideLabel}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={controlClasses(error, `${props.type === "file" ? "" : CONTROL_HEIGHT} ${className}`)}
        {...props}
      />
    </Field>
  );
}
