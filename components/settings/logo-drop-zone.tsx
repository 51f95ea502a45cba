"use client";

import { ImageUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";

const TYPES = ["image/png", "image/jpeg"];

/**
 * The logo's file input as a drop zone: click (or Enter/Space on the input) to choose, or drop an
 * image on it; the chosen image is shown before it is uploaded, with its name and size, and a file
 * that is not a PNG or JPEG or is too large is named as such here (the server checks again, by the
 * bytes). The input stays the form's field `name`, labelled "Logo image".
 */
export function LogoDropZone({ id, name, hint, maxBytes }: { id: string; name: string; hint: string; maxBytes: number }) {
  const input = useRef<HTMLInputElement>(null);
  const [choice, setChoice] = useState<{ file: File; preview: string | null } | null>(null);
  const [over, setOver] = useState(false);
  const file = choice?.file ?? null;
  const preview = choice?.preview ?? null;

  /** The chosen file and a local URL to show it by (the previous one's released). */
  const choose = (next: File | null) =>
    setChoice((previous) => {
      if (previous?.preview) URL.revokeObjectURL(previous.preview);
      return next ? { file: next, preview: TYPES.includes(next.type) ? URL.createObjectURL(next) : null } : null;
    });

  // The form is reset once its action has answered: the choice goes with it.
  useEffect(() => {
    const form = input.current?.form;
    const clear = () => choose(null);
    form?.addEventListener("reset", clear);
    return () => form?.removeEventListener("reset", clear);
  }, []);

  const problem = !file
    ? null
    : !TYPES.includes(file.type)
      ? "This is not a PNG or JPEG: it will be refused."
      : file.size > maxBytes
        ? `This is ${Math.ceil(file.size / 1024)} KB, over ${maxBytes / 1024} KB: it will be refused.`
        : null;

  return (
    <div className="text-sm">
      <label
        htmlFor={id}
        data-testid="logo-drop-zone"
        data-over={over || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const dropped = e.dataTransfer.files;
          if (input.current && dropped.length > 0) {
            input.current.files = dropped;
            // As a choice through the dialog: the input's onChange takes it, and the form sees a change.
            input.current.dispatchEvent(new Event("change", { bubbles: true }));
          }
        }}
        className={`flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed p-5 text-center focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-ink ${over ? "border-brand-ink bg-brand-wash" : "border-line-strong bg-subtle hover:bg-muted"}`}
      >
        {preview ? (
          // eslint-disable-next-line @next/next/no-img-element -- a local blob: preview before upload
          <img src={preview} alt="Preview of the chosen logo" data-testid="logo-choice-preview" className="h-12 w-auto max-w-full rounded bg-white p-1" />
        ) : (
          <ImageUp aria-hidden size={28} className="text-fg-subtle" />
        )}
        <span className="font-medium text-fg">Logo image</span>
        <span className="text-fg-muted">{file ? `${file.name} · ${Math.ceil(file.size / 1024)} KB` : "Drop a PNG or JPEG here, or choose one"}</span>
        <input
          ref={input}
          id={id}
          name={name}
          type="file"
          accept={TYPES.join(",")}
          required
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          className="sr-only"
        />
      </label>
      {problem ? (
        <p id={`${id}-problem`} className="mt-1 font-medium text-danger" data-testid="logo-problem">
          {problem}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="mt-1 text-xs text-fg-subtle">
        {hint}
      </p>
    </div>
  );
}
