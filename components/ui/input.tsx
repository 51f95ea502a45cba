import type { InputHTMLAttributes } from "react";
import { FieldError } from "@/components/ui/field-error";

export function Input({ label, id, error, className = "", ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; error?: string }) {
  return (
    <label htmlFor={id} className="block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`block w-full rounded-md border bg-white px-3 py-2 focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand ${error ? "border-red-500" : "border-slate-300"} ${className}`}
        {...props}
      />
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}
