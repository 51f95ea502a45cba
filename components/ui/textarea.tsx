import type { TextareaHTMLAttributes } from "react";
import { FieldError } from "@/components/ui/field-error";

export function Textarea({
  label,
  id,
  error,
  hint,
  className = "",
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; id: string; error?: string; hint?: string }) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <label htmlFor={id} className="block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`block w-full rounded-md border bg-white px-3 py-2 focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand ${error ? "border-red-500" : "border-slate-300"} ${className}`}
        {...props}
      />
      {hint ? (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-slate-500">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}
