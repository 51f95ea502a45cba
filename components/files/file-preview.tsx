"use client";

import { Download } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import type { PreviewKind } from "@/lib/files/file-url";
import { parseCsv } from "./csv";
import { formatSize } from "./format";
import { PdfPreview } from "./pdf-preview";

/** What the preview shows of a file (from getFilePreview, dates as ISO strings across the server/client line). */
export interface PreviewFile {
  id: string;
  name: string;
  size: number;
  contentType: string | null;
  uploadedAt: string;
  uploader: string | null;
  task: string | null;
  kind: PreviewKind;
  url: string | null;
  downloadHref: string;
}

/** Text and CSV previews read at most this much of the file. */
const TEXT_LIMIT = 512 * 1024;

/** The start of a text file (up to TEXT_LIMIT bytes), as UTF-8. */
async function readText(url: string): Promise<{ text: string; cut: boolean }> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`storage answered ${res.status}`);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length >= TEXT_LIMIT) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { text: new TextDecoder().decode(bytes.subarray(0, TEXT_LIMIT)), cut };
}

/**
 * The in-page preview of `?file=<id>`: PDFs (pdf.js), images, plain text and CSV (a table); other
 * types show their details and a download button. Closing it goes back to the folder (`closeHref`).
 */
export function FilePreview({ file, closeHref }: { file: PreviewFile; closeHref: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(true);
  return (
    <Dialog
      wide
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setOpen(false);
          router.push(closeHref, { scroll: false });
        }
      }}
      title={file.name}
      description={
        <span data-testid="preview-details">
          {formatSize(file.size)} · {file.contentType ?? "unknown type"} · uploaded {file.uploadedAt.slice(0, 10)}
          {file.uploader ? ` by ${file.uploader}` : ""}
          {file.task ? ` · linked to “${file.task}”` : ""}
        </span>
      }
    >
      <div className="mb-4">
        <a href={file.downloadHref} className={buttonClasses("secondary", "sm")}>
          <Download aria-hidden size={16} /> Download
        </a>
      </div>
      <div data-testid="preview-body" data-kind={file.kind}>
        <PreviewBody file={file} />
      </div>
    </Dialog>
  );
}

function PreviewBody({ file }: { file: PreviewFile }) {
  if (!file.url || file.kind === "other") {
    return <Alert tone="info">This type of file cannot be shown here. Use Download to open it with an app on your device.</Alert>;
  }
  if (file.kind === "pdf") return <PdfPreview url={file.url} title={file.name} />;
  if (file.kind === "image") return <ImagePreview url={file.url} name={file.name} />;
  return <TextPreview url={file.url} csv={file.kind === "csv"} />;
}

/** The image through a blob: URL (the CSP allows images from this origin, data: and blob: only). */
function ImagePreview({ url, name }: { url: string; name: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(url)
      .then((res) => {
        if (!res.ok) throw new Error(String(res.status));
        return res.blob();
      })
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => !cancelled && setError(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (error) return <Alert>The image could not be loaded: close the preview and open it again, or download it.</Alert>;
  if (!src) return <Skeleton className="h-64 w-full" />;
  // eslint-disable-next-line @next/next/no-img-element -- a blob: URL of the user's file, not an optimizable asset
  return <img src={src} alt={name} className="mx-auto max-h-[70vh] max-w-full rounded border border-line" data-testid="image-preview" />;
}

function TextPreview({ url, csv }: { url: string; csv: boolean }) {
  const [content, setContent] = useState<{ text: string; cut: boolean } | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => {
    let cancelled = false;
    readText(url)
      .then((c) => !cancelled && setContent(c))
      .catch(() => !cancelled && setError(true));
    return () => {
      cancelled = true;
    };
  }, [url]);
  if (error) return <Alert>The file could not be loaded: close the preview and open it again, or download it.</Alert>;
  if (!content) return <Skeleton className="h-64 w-full" />;
  const cutNote = content.cut ? <p className="mt-2 text-xs text-fg-subtle">Only the first 512 KB are shown: download the file to see all of it.</p> : null;
  if (!csv) {
    return (
      <div>
        <pre
          className="max-h-[60vh] overflow-auto rounded border border-line bg-subtle p-3 text-xs whitespace-pre-wrap"
          data-testid="text-preview"
          tabIndex={0}
        >
          {content.text}
        </pre>
        {cutNote}
      </div>
    );
  }
  const { rows, truncated } = parseCsv(content.text);
  const [head = [], ...body] = rows;
  return (
    <div>
      <div className="max-h-[60vh] overflow-auto rounded border border-line" tabIndex={0} role="region" aria-label="CSV contents">
        <table className="min-w-full text-xs" data-testid="csv-preview">
          <thead className="sticky top-0 bg-muted">
            <tr>
              {head.map((h, i) => (
                <th key={i} scope="col" className="px-2 py-1 text-left font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line-soft">
            {body.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j} className="px-2 py-1 whitespace-pre-wrap">
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {truncated ? <p className="mt-2 text-xs text-fg-subtle">Only the first 500 rows are shown: download the file to see all of it.</p> : null}
      {cutNote}
    </div>
  );
}
