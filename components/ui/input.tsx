import type { InputHTMLAttributes } from "react";

export function Input({ label, id, className = "", ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string }) {
  return (
    <label htmlFor={id} className="block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <input
        id={id}
        className={`block w-full rounded-md border border-slate-300 bg-white px-3 py-2 focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand ${className}`}
        {...props}
      />
    </label>
  );
}
