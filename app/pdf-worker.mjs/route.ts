import { readFile } from "node:fs/promises";
import path from "node:path";

// pdf.js's worker for the PDF preview (components/files/pdf-preview.tsx), from the installed
// pdfjs-dist, same origin so that the page CSP's `worker-src 'self'` allows it. Read once.

let worker: Promise<Buffer> | undefined;

export async function GET(): Promise<Response> {
  worker ??= readFile(path.join(process.cwd(), "node_modules", "pdfjs-dist", "build", "pdf.worker.min.mjs"));
  const body = await worker;
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      // The file changes only with the installed pdfjs-dist version (a deploy).
      "Cache-Control": "public, max-age=86400",
    },
  });
}
