"use client";

import { useState } from "react";
import { controlClasses } from "@/components/ui/field";
import { contrastWithWhite, MIN_BRAND_CONTRAST } from "@/lib/organization/brand-colour";

const HEX = /^#[0-9a-f]{6}$/i;
const DEFAULT_BRAND = "#1f4e79";

/**
 * The brand colour: a colour picker and its hex text field kept in step (the text field is what the
 * form sends, `name`), with the colour's contrast ratio with white as it changes. Below 4.5:1 it says why the colour will be refused. Empty means the default.
 */
export function BrandColourField({ id, name, value }: { id: string; name: string; value: string }) {
  const [hex, setHex] = useState(value);
  const valid = HEX.test(hex);
  const shown = valid ? hex.toLowerCase() : DEFAULT_BRAND;
  const ratio = contrastWithWhite(shown);
  const enough = ratio >= MIN_BRAND_CONTRAST;
  return (
    <fieldset className="text-sm" aria-describedby={`${id}-hint ${id}-contrast`}>
      <legend className="mb-1 font-medium text-fg-2">Brand colour</legend>
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="color"
          aria-label="Pick the brand colour"
          value={shown}
          onChange={(e) => setHex(e.target.value)}
          className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-line-strong bg-surface p-1"
        />
        <input
          id={id}
          name={name}
          aria-label="Brand colour"
          value={hex}
          onChange={(e) => setHex(e.target.value.trim())}
          placeholder={DEFAULT_BRAND}
          pattern="#[0-9a-fA-F]{6}"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={valid && !enough ? true : undefined}
          className={controlClasses(valid && !enough ? "too light" : undefined, "w-32! font-mono")}
        />
      </div>
      <p id={`${id}-contrast`} data-testid="brand-contrast" aria-live="polite" className={`mt-1 ${enough ? "text-fg-muted" : "font-medium text-danger"}`}>
        {valid || hex === "" ? (
          <>
            Contrast with white: {ratio.toFixed(2)}:1 {hex === "" ? "(the default colour)" : ""}
            {enough
              ? " — white text on it reads well."
              : ` — too light: white button text and links need at least ${MIN_BRAND_CONTRAST}:1 (WCAG AA), so this colour will be refused. Choose a darker one.`}
          </>
        ) : (
          "Type a hex colour such as #1f4e79, or pick one."
        )}
      </p>
      <p id={`${id}-hint`} className="mt-1 text-xs text-fg-subtle">
        Used for buttons and links on portal and guest pages and in emails. Leave empty for the default.
      </p>
    </fieldset>
  );
}
