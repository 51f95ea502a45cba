import type { ReactNode, SelectHTMLAttributes } from "react";
import { CONTROL_HEIGHT, controlClasses, describedBy, Field } from "@/components/ui/field";

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A labelled native select: the platform's own picker on phones, keyboard and screen reader
 * support for free. `label` may be visually hidden with `hideLabel` (it still names the control).
 */
export function Select({
  label,
  id,
  options,
  error,
  hideLabel = false,
  placeholder,
  className = "",
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  id: string;
  options: SelectOption[];
  error?: string;
  hideLabel?: boolean;
  placeholder?: ReactNode;
}) {
  return (
    <Field label={label} id={id} error={error} hideLabel={hideLabel}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        className={controlClasses(error, `${CONTROL_HEIGHT} ${className}`)}
        {...props}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
