"use client";

import { Eye, EyeOff } from "lucide-react";
import { useState, type InputHTMLAttributes, type Ref } from "react";
import { controlClasses } from "@/components/ui/field";

/**
 * A password field with a Show toggle (a pressed button, named "Show password") that switches it
 * to plain text and back. The button sits outside the label, so the field's name stays the label.
 */
export function PasswordInput({
  label,
  id,
  ref,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { label: string; id: string; ref?: Ref<HTMLInputElement> }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1 block font-medium text-fg-2">
        {label}
      </label>
      <div className="relative">
        <input ref={ref} id={id} type={shown ? "text" : "password"} className={controlClasses(undefined, "pr-20")} {...props} />
        <button
          type="button"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
          className="absolute inset-y-1 right-1 inline-flex items-center gap-1 rounded px-2 text-sm font-medium text-brand-ink hover:bg-muted focus-visible:outline-2 focus-visible:outline-brand-ink"
        >
          {shown ? <EyeOff aria-hidden size={16} /> : <Eye aria-hidden size={16} />}
          Show<span className="sr-only"> password</span>
        </button>
      </div>
    </div>
  );
}
