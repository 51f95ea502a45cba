"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition } from "react";
import { Input } from "@/components/ui/input";

/** How long typing must pause before the list follows it. */
const DEBOUNCE_MS = 300;

/**
 * The list's name search, applied as the member types (after a short pause): the list follows
 * the whole form as it stands, as Apply would, so a half-edited filter next to it is applied
 * with the name and no later Apply is undone by a late search. The URL keeps every choice
 * (replaced, not pushed: typing does not fill the back button). Without script it is a plain
 * field of the form.
 */
export function SearchAsYouType({
  id,
  name,
  label,
  defaultValue,
  placeholder,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  placeholder?: string;
}) {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    const form = input?.form;
    if (!form) return;
    // Apply (or Enter) takes over from a search still waiting.
    const cancel = () => clearTimeout(timer.current);
    form.addEventListener("submit", cancel);
    return () => {
      form.removeEventListener("submit", cancel);
      cancel();
    };
  }, [id]);

  // The list's search changed from elsewhere (a tab, Clear, the back button): the field shows it,
  // unless the member is typing in it.
  useEffect(() => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    if (input && document.activeElement !== input && input.value !== defaultValue) input.value = defaultValue;
  }, [id, defaultValue]);

  const follow = (input: HTMLInputElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const form = input.form;
      if (!form) return;
      const params = new URLSearchParams();
      for (const [key, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.set(key, value);
      const query = params.toString();
      const target = `${new URL(form.action).pathname}${query ? `?${query}` : ""}`;
      startTransition(() => router.replace(target, { scroll: false }));
    }, DEBOUNCE_MS);
  };

  return (
    <Input
      label={label}
      id={id}
      name={name}
      type="search"
      defaultValue={defaultValue}
      placeholder={placeholder}
      autoComplete="off"
      aria-busy={pending || undefined}
      onChange={(e) => follow(e.currentTarget)}
    />
  );
}
