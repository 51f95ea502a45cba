"use client";

import { useState } from "react";
import { Uploader } from "@/components/files/uploader";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { placementJson, POSITIONS, type Position } from "./labels";
import type { FileActions } from "@/components/files/actions";

// A Sign Document's document (a PDF of the portal) and where the signature goes: a signature page
// added at the end (default), or a box on one page at a corner. Posted as `document_file_id` and
// `placement` (JSON, lib/tasks/sign-document-task.ts SignaturePlacementSchema).

export interface PdfOption {
  id: string;
  name: string;
}

export function SignatureFields({
  files,
  portalId,
  pdfs: portalPdfs,
  errors,
  initialFileId = "",
}: {
  files: FileActions;
  portalId: string;
  pdfs: PdfOption[];
  errors: { document_file_id?: string; placement?: string };
  initialFileId?: string;
}) {
  // A PDF uploaded here joins the choices and is chosen.
  const [pdfs, setPdfs] = useState(portalPdfs);
  const [fileId, setFileId] = useState(initialFileId);
  const [uploadNote, setUploadNote] = useState<string | null>(null);
  const [mode, setMode] = useState<"page" | "box">("page");
  const [page, setPage] = useState(1);
  const [position, setPosition] = useState<Position>("bottom-right");
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-sm font-medium text-fg-2">Document to sign</legend>
      {pdfs.length === 0 ? <p className="text-sm text-warning">This portal has no PDF yet: upload the document below.</p> : null}
      <Select
        id="document_file_id"
        name="document_file_id"
        label="PDF of this portal"
        placeholder="Choose a PDF"
        value={fileId}
        onChange={(e) => setFileId(e.target.value)}
        options={pdfs.map((p) => ({ value: p.id, label: p.name }))}
        error={errors.document_file_id}
      />
      <details className="rounded-md border border-line p-3 text-sm">
        <summary className="cursor-pointer font-medium text-fg-2">Or upload a new PDF</summary>
        <div className="mt-2">
          <Uploader
            actions={files}
            portalId={portalId}
            folderId={null}
            onUploaded={(file) => {
              if (!file.name.toLowerCase().endsWith(".pdf")) {
                setUploadNote(`${file.name} was added to the portal, but only a PDF can be signed: upload a PDF.`);
                return;
              }
              setPdfs((list) => [...list.filter((p) => p.id !== file.id), { id: file.id, name: file.name }]);
              setFileId(file.id);
              setUploadNote(`${file.name} is the document to sign.`);
            }}
          />
          {uploadNote ? (
            <p role="status" className="mt-2 text-fg-2">
              {uploadNote}
            </p>
          ) : null}
        </div>
      </details>
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
        <p role="alert" className="text-sm text-danger">
          {errors.placement}
        </p>
      ) : null}
    </fieldset>
  );
}
