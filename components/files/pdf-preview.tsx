"use client";

import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * Where the browser loads pdf.js's worker from: a same-origin route (app/pdf-worker.mjs/route.ts)
 * serving the installed pdfjs-dist worker, allowed by the page CSP's `worker-src 'self'`.
 */
const PDF_WORKER_PATH = "/pdf-worker.mjs";

/** Pages rendered at first; "Show more pages" renders the next batch. */
const PAGE_BATCH = 10;

type PdfDocument = Awaited<ReturnType<(typeof import("pdfjs-dist"))["getDocument"]>["promise"]>;

/**
 * A PDF's pages drawn on canvases with pdf.js (loaded on demand, worker under the CSP, no eval),
 * each page as wide as the panel (sharp on high-density screens). `url` must be fetchable by the
 * browser (a same-origin route or a signed storage URL whose bucket allows this origin).
 */
export function PdfPreview({ url, title }: { url: string; title: string }) {
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(PAGE_BATCH);

  useEffect(() => {
    let cancelled = false;
    let loaded: PdfDocument | null = null;
    let task: { destroy(): Promise<void> } | null = null;
    (async () => {
      const pdfjs = await import("pdfjs-dist");
      pdfjs.GlobalWorkerOptions.workerSrc = PDF_WORKER_PATH;
      const loading = pdfjs.getDocument({ url, isEvalSupported: false, withCredentials: false });
      task = loading;
      const pdf = await loading.promise;
      loaded = pdf;
      if (cancelled) return void pdf.destroy();
      setDoc(pdf);
    })().catch((e: unknown) => {
      if (cancelled) return;
      const name = e instanceof Error ? e.name : "";
      setError(
        name === "InvalidPDFException"
          ? "This file is not a readable PDF: download it and open it with a PDF reader."
          : "The preview could not be loaded: reload the page, or download the file instead.",
      );
    });
    return () => {
      cancelled = true;
      void task?.destroy();
      void loaded?.destroy();
    };
  }, [url]);

  if (error) return <Alert>{error}</Alert>;
  if (!doc) return <Skeleton className="h-96 w-full" />;
  const count = Math.min(shown, doc.numPages);
  return (
    <div className="space-y-4" data-testid="pdf-preview" data-pages={doc.numPages}>
      <p className="text-sm text-fg-muted">
        {doc.numPages === 1 ? "1 page" : `${doc.numPages} pages`}
        {count < doc.numPages ? `, first ${count} shown` : ""}
      </p>
      {Array.from({ length: count }, (_, i) => (
        <PdfPage key={i + 1} doc={doc} pageNumber={i + 1} label={`${title}, page ${i + 1} of ${doc.numPages}`} />
      ))}
      {count < doc.numPages ? (
        <Button variant="secondary" onClick={() => setShown((n) => n + PAGE_BATCH)}>
          Show more pages
        </Button>
      ) : null}
    </div>
  );
}

function PdfPage({ doc, pageNumber, label }: { doc: PdfDocument; pageNumber: number; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<"rendering" | "rendered" | "failed">("rendering");

  useEffect(() => {
    let cancelled = false;
    let render: { cancel(): void } | null = null;
    (async () => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      const page = await doc.getPage(pageNumber);
      if (cancelled) return;
      const width = canvas.parentElement?.clientWidth || 800;
      const base = page.getViewport({ scale: 1 });
      const scale = width / base.width;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      // The width alone: the height follows the canvas's own proportions, so a page drawn for a
      // wider window and then held to a narrower one (max-w-full) shrinks instead of stretching.
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      const task = page.render({ canvas, viewport });
      render = task;
      await task.promise;
      if (!cancelled) setState("rendered");
    })().catch((e: unknown) => {
      if (cancelled || (e instanceof Error && e.name === "RenderingCancelledException")) return;
      setState("failed");
    });
    return () => {
      cancelled = true;
      render?.cancel();
    };
  }, [doc, pageNumber]);

  return (
    <div className="w-full overflow-hidden rounded border border-line bg-surface shadow-sm">
      <canvas ref={canvasRef} role="img" aria-label={label} data-testid="pdf-page" data-state={state} className="block h-auto max-w-full" />
      {state === "failed" ? <p className="p-3 text-sm text-danger">Page {pageNumber} could not be drawn: download the file to see it.</p> : null}
    </div>
  );
}
