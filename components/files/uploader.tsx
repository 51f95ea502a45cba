"use client";

import { CheckCircle2, CircleAlert, RotateCw, Upload, X } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { useToast } from "@/components/ui/toast";
import { MAX_FILE_SIZE } from "@/lib/files/limits";
import { formatSize } from "./format";
import type { FileActions, UploadCompleteState, UploadStartState } from "./actions";

/** Uploads that run at the same time; the others wait their turn. */
const PARALLEL = 3;

type Status = "queued" | "uploading" | "saving" | "done" | "failed" | "cancelled";

interface Item {
  key: number;
  file: File;
  status: Status;
  /** 0-100 while uploading. */
  progress: number;
  error?: string;
  /** A failure that a retry cannot fix (too large, refused name): no Retry button. */
  final?: boolean;
}

export interface UploadedFile {
  id: string;
  name: string;
}

/** An error of a server action's state as one sentence (the form's message or its first field message). */
function stateError(state: UploadStartState | UploadCompleteState): string | undefined {
  const field = Object.values(state.fieldErrors ?? {}).find(Boolean);
  return state.error ?? field;
}

/** Refusals the browser can tell before sending anything. */
function precheck(file: File): string | undefined {
  if (file.size > MAX_FILE_SIZE) return `${file.name} is ${formatSize(file.size)}: files are limited to 2 GB. Compress it or split it into smaller files.`;
  if (file.name.length > 255) return "The file name is longer than 255 characters: rename the file and upload it again.";
  return undefined;
}

/** PUTs the bytes to the presigned URL with progress; rejects with a message that says what to do. */
function put(url: string, file: File, contentType: string, onProgress: (percent: number) => void, xhrRef: { current: XMLHttpRequest | null }): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else if (xhr.status === 403) reject(new Error("Storage refused the upload (the upload link expired): press Retry."));
      else reject(new Error(`Storage answered ${xhr.status}: press Retry; if it keeps failing, tell your administrator.`));
    };
    xhr.onerror = () => reject(new Error("Could not reach the file storage: check your connection and press Retry."));
    xhr.onabort = () => reject(new DOMException("cancelled", "AbortError"));
    xhr.send(file);
  });
}

/**
 * Upload to a portal folder (or a task): drag and drop or the file picker, several files at once,
 * each straight to storage through the two-step presigned flow (server action → PUT with progress →
 * server action), with a progress bar, Cancel and Retry per file.
 */
export function Uploader({
  actions,
  portalId,
  folderId,
  taskId,
  onUploaded,
}: {
  actions: FileActions;
  portalId: string;
  /** null or "main": the portal root. */
  folderId: string | null;
  taskId?: string;
  onUploaded?: (file: UploadedFile) => void;
}) {
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const xhrs = useRef(new Map<number, { current: XMLHttpRequest | null }>());
  const cancelled = useRef(new Set<number>());
  /** Keys whose current attempt has started (effects may run twice; a retry clears the key). */
  const started = useRef(new Set<number>());
  const nextKey = useRef(1);
  const inputId = useId();
  const toast = useToast();

  const update = useCallback((key: number, change: Partial<Item>) => {
    setItems((current) => current.map((i) => (i.key === key ? { ...i, ...change } : i)));
  }, []);

  const run = useCallback(
    async (item: Item) => {
      const { key, file } = item;
      const xhrRef = { current: null as XMLHttpRequest | null };
      xhrs.current.set(key, xhrRef);
      cancelled.current.delete(key);
      update(key, { status: "uploading", progress: 0, error: undefined });
      const contentType = file.type || "application/octet-stream";
      try {
        const start = new FormData();
        start.set("portalId", portalId);
        start.set("filename", file.name);
        start.set("contentType", contentType);
        start.set("size", String(file.size));
        start.set("folderId", folderId ?? "");
        if (taskId) start.set("taskId", taskId);
        const started = await actions.startUpload({}, start);
        if (!started.ticket) {
          update(key, { status: "failed", error: stateError(started) ?? "The upload could not start: press Retry.", final: true });
          return;
        }
        if (cancelled.current.has(key)) throw new DOMException("cancelled", "AbortError");
        await put(started.ticket.uploadUrl, file, started.ticket.contentType, (progress) => update(key, { progress }), xhrRef);
        update(key, { status: "saving", progress: 100 });
        const complete = new FormData();
        complete.set("portalId", portalId);
        complete.set("fileId", started.ticket.fileId);
        complete.set("filename", file.name);
        complete.set("size", String(file.size));
        const completed = await actions.completeUpload({}, complete);
        if (!completed.file) {
          update(key, { status: "failed", error: stateError(completed) ?? "The file could not be saved: press Retry." });
          return;
        }
        update(key, { status: "done" });
        onUploaded?.(completed.file);
      } catch (e) {
        if (e instanceof DOMException && e.name === "AbortError") update(key, { status: "cancelled", error: undefined });
        else update(key, { status: "failed", error: e instanceof Error ? e.message : "The upload failed: press Retry." });
      } finally {
        xhrs.current.delete(key);
      }
    },
    [actions, portalId, folderId, taskId, onUploaded, update],
  );

  // Starts queued uploads while fewer than PARALLEL run.
  useEffect(() => {
    const running = items.filter((i) => i.status === "uploading" || i.status === "saving").length;
    const queued = items.filter((i) => i.status === "queued").slice(0, Math.max(0, PARALLEL - running));
    for (const item of queued) {
      if (started.current.has(item.key)) continue;
      started.current.add(item.key);
      void run(item);
    }
  }, [items, run]);

  // A summary toast once a batch has settled.
  const settled = items.length > 0 && items.every((i) => i.status === "done" || i.status === "failed" || i.status === "cancelled");
  const announced = useRef(false);
  useEffect(() => {
    if (!settled) {
      announced.current = false;
      return;
    }
    if (announced.current) return;
    announced.current = true;
    const done = items.filter((i) => i.status === "done").length;
    const failed = items.filter((i) => i.status === "failed").length;
    if (failed > 0) toast(`${failed} of ${items.length} uploads failed`, { tone: "error", description: "See the messages under each file." });
    else if (done > 0) toast(done === 1 ? "File uploaded" : `${done} files uploaded`);
  }, [settled, items, toast]);

  const add = (files: FileList | File[]) => {
    const added: Item[] = Array.from(files).map((file) => {
      const problem = precheck(file);
      return { key: nextKey.current++, file, status: problem ? "failed" : "queued", progress: 0, error: problem, final: !!problem };
    });
    if (added.length > 0) setItems((current) => [...current.filter((i) => i.status !== "done"), ...added]);
  };

  const cancel = (key: number) => {
    cancelled.current.add(key);
    const xhr = xhrs.current.get(key)?.current;
    if (xhr) xhr.abort();
    setItems((current) => current.map((i) => (i.key === key && i.status === "queued" ? { ...i, status: "cancelled" } : i)));
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length > 0) add(e.dataTransfer.files);
  };

  return (
    <div className="space-y-3" data-testid="uploader">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm ${dragging ? "border-brand bg-brand-ink/5" : "border-line-strong bg-surface"}`}
        data-testid="drop-zone"
      >
        <Upload aria-hidden size={24} className="text-fg-faint" />
        {/* A phone has nothing to drop from: there the button offers the camera and the files. */}
        <p className="text-fg-2 pointer-coarse:hidden">Drop files here, or</p>
        <label htmlFor={inputId} className="sr-only">
          Choose files to upload
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          // The visible button opens it; one tab stop, not two.
          tabIndex={-1}
          className="sr-only"
          onChange={(e) => {
            if (e.target.files) add(e.target.files);
            e.target.value = "";
          }}
        />
        <Button variant="secondary" size="sm" onClick={() => inputRef.current?.click()}>
          <span className="pointer-coarse:hidden">Choose files</span>
          <span className="hidden pointer-coarse:inline">Take a photo or choose a file</span>
        </Button>
        <p className="text-xs text-fg-subtle">Several files at once, up to 2 GB each.</p>
      </div>
      {items.length > 0 ? (
        <ul className="space-y-2" aria-label="Uploads">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              onCancel={() => cancel(item.key)}
              onRetry={() => {
                started.current.delete(item.key);
                update(item.key, { status: "queued", progress: 0, error: undefined });
              }}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const LABELS: Record<Status, string> = {
  queued: "Waiting",
  uploading: "Uploading",
  saving: "Saving",
  done: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

function UploadRow({ item, onCancel, onRetry }: { item: Item; onCancel: () => void; onRetry: () => void }) {
  const { file, status, progress, error } = item;
  const active = status === "queued" || status === "uploading" || status === "saving";
  const value = status === "done" ? 100 : status === "queued" ? 0 : progress;
  return (
    <li className="rounded-md border border-line bg-surface p-3 text-sm" data-testid="upload-row" data-status={status}>
      <div className="mb-2 flex items-center justify-between gap-3">
        <span className="min-w-0 truncate font-medium text-fg" title={file.name}>
          {file.name}
        </span>
        <span className="flex shrink-0 items-center gap-2 text-fg-muted">
          {status === "done" ? <CheckCircle2 aria-hidden size={16} className="text-success" /> : null}
          {status === "failed" ? <CircleAlert aria-hidden size={16} className="text-danger" /> : null}
          <span>
            {LABELS[status]}
            {status === "uploading" ? ` ${progress}%` : ""} · {formatSize(file.size)}
          </span>
          {active ? (
            <Button variant="ghost" size="sm" onClick={onCancel} aria-label={`Cancel upload of ${file.name}`}>
              <X aria-hidden size={14} /> Cancel
            </Button>
          ) : null}
          {(status === "failed" && !item.final) || status === "cancelled" ? (
            <Button variant="ghost" size="sm" onClick={onRetry} aria-label={`Retry upload of ${file.name}`}>
              <RotateCw aria-hidden size={14} /> Retry
            </Button>
          ) : null}
        </span>
      </div>
      <Progress value={value} label={`Upload of ${file.name}`} tone={status === "done" ? "success" : status === "failed" ? "danger" : "brand"} />
      {error ? (
        <p role="alert" className="mt-2 text-danger">
          {error}
        </p>
      ) : null}
    </li>
  );
}
