import type { ReactNode, SelectHTMLAttributes } from "react";
import { FieldError } from "@/components/ui/field-error";

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
    <label htmlFor={id} className="block text-sm">
      <span className={hideLabel ? "sr-only" : "mb-1 block font-medium text-slate-700"}>{label}</span>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`block w-full rounded-md border bg-white px-3 py-2 focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand ${error ? "border-red-500" : "border-slate-300"} ${className}`}
        {...props}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}
