import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled native checkbox (forms post it as-is); `description` explains it under the label. */
export function Checkbox({
  label,
  id,
  description,
  className = "",
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { label: ReactNode; id: string; description?: ReactNode }) {
  return (
    <div className={`flex items-start gap-2 text-sm ${className}`}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5 size-4 rounded border-line-strong text-brand-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink"
        {...props}
      />
      <label htmlFor={id}>
        <span className="font-medium text-fg">{label}</span>
        {description ? (
          <span id={`${id}-description`} className="block text-fg-muted">
            {description}
          </span>
        ) : null}
      </label>
    </div>
  );
}
