"use client";

import { useState } from "react";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// A Sign Document's document (a PDF of the portal) and where the signature goes: a signature page
// added at the end (default), or a box on one page at a corner. Posted as `document_file_id` and
// `placement` (JSON, lib/tasks/sign-document.ts SignaturePlacementSchema).

export interface PdfOption {
  id: string;
  name: string;
}

const BOX = { width: 0.35, height: 0.1 };
const MARGIN = 0.05;
const POSITIONS = {
  "bottom-right": { x: 1 - MARGIN - BOX.width, y: 1 - MARGIN - BOX.height },
  "bottom-left": { x: MARGIN, y: 1 - MARGIN - BOX.height },
  "top-right": { x: 1 - MARGIN - BOX.width, y: MARGIN },
  "top-left": { x: MARGIN, y: MARGIN },
} as const;
type Position = keyof typeof POSITIONS;

export function placementJson(mode: "page" | "box", page: number, position: Position): string {
  if (mode === "page") return JSON.stringify({ signaturePage: true });
  return JSON.stringify({ page, ...POSITIONS[position], ...BOX });
}

/** Reads a stored placement back (for the detail view). */
export function describePlacement(placement: unknown): string {
  const p = placement as { signaturePage?: boolean; page?: number; x?: number; y?: number } | null;
  if (!p || p.signaturePage) return "On a signature page added at the end";
  const pos = Object.entries(POSITIONS).find(([, v]) => Math.abs(v.x - (p.x ?? -1)) < 0.001 && Math.abs(v.y - (p.y ?? -1)) < 0.001)?.[0];
  return `On page ${p.page}${pos ? `, ${pos.replace("-", " ")}` : ""}`;
}

export function SignatureFields({
  pdfs,
  errors,
  initialFileId = "",
}: {
  pdfs: PdfOption[];
  errors: { document_file_id?: string; placement?: string };
  initialFileId?: string;
}) {
  const [mode, setMode] = useState<"page" | "box">("page");
  const [page, setPage] = useState(1);
  const [position, setPosition] = useState<Position>("bottom-right");
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-sm font-medium text-slate-700">Document to sign</legend>
      {pdfs.length === 0 ? (
        <p className="text-sm text-amber-800" role="alert">
          This portal has no PDF yet: upload the document in the Files tab, then come back.
        </p>
      ) : null}
      <Select
        id="document_file_id"
        name="document_file_id"
        label="PDF of this portal"
        placeholder="Choose a PDF"
        defaultValue={initialFileId}
        options={pdfs.map((p) => ({ value: p.id, label: p.name }))}
        error={errors.document_file_id}
      />
      <div className="space-y-2 text-sm" role="radiogroup" aria-label="Where the signature goes">
        <label className="flex items-center gap-2">
          <input type="radio" name="placement_mode" checked={mode === "page"} onChange={() => setMode("page")} />
          On a signature page added at the end
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="placement_mode" checked={mode === "box"} onChange={() => setMode("box")} />
          On a page of the document
        </label>
      </div>
      {mode === "box" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <Input
            id="placement-page"
            label="Page number"
            type="number"
            min={1}
            value={page}
            onChange={(e) => setPage(Math.max(1, Number(e.target.value) || 1))}
          />
          <Select
            id="placement-position"
            label="Position on the page"
            value={position}
            onChange={(e) => setPosition(e.target.value as Position)}
            options={Object.keys(POSITIONS).map((p) => ({ value: p, label: p.replace("-", " ") }))}
          />
        </div>
      ) : null}
      <input type="hidden" name="placement" value={placementJson(mode, page, position)} />
      {errors.placement ? (
        <p role="alert" className="text-sm text-red-700">
          {errors.placement}
        </p>
      ) : null}
    </fieldset>
  );
}
