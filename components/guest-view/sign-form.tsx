"use client";

import { CheckCircle2, Eraser, PenLine, Type } from "lucide-react";
import Link from "next/link";
import { useActionState, useEffect, useRef, useState, type PointerEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import type { FormAction, FormState } from "@/lib/web/form-state";

// Signing in the browser: type the name, or draw with the mouse, a pen or a finger (pointer
// events on a canvas, exported as PNG), then consent and sign. The server makes the signed PDF.

export type SignFormState = FormState<{ typedName: string; method: string }> & { signedFileId?: string };

const CANVAS_WIDTH = 600;
const CANVAS_HEIGHT = 200;

function DrawPad({ onChange }: { onChange: (dataUrl: string) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    ctx.lineWidth = 3;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#0d1a59";
  }, []);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) / rect.width) * CANVAS_WIDTH, y: ((e.clientY - rect.top) / rect.height) * CANVAS_HEIGHT };
  };
  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    const ctx = e.currentTarget.getContext("2d");
    if (!ctx) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    const { x, y } = point(e);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 0.1, y + 0.1);
    ctx.stroke();
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = e.currentTarget.getContext("2d");
    if (!ctx) return;
    const { x, y } = point(e);
    ctx.lineTo(x, y);
    ctx.stroke();
  };
  const up = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current = false;
    setEmpty(false);
    onChange(e.currentTarget.toDataURL("image/png"));
  };
  const clear = () => {
    const c = canvas.current;
    c?.getContext("2d")?.clearRect(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);
    setEmpty(true);
    onChange("");
  };

  return (
    <div className="space-y-2">
      <p id="draw-help" className="text-sm text-fg-muted">
        Sign in the box with your finger, a pen or the mouse.
      </p>
      <canvas
        ref={canvas}
        width={CANVAS_WIDTH}
        height={CANVAS_HEIGHT}
        data-testid="signature-pad"
        role="img"
        aria-label={empty ? "Signature box, empty" : "Signature box, signed"}
        aria-describedby="draw-help"
        // touch-action none: the finger draws instead of scrolling the page. White in both colour
        // schemes: the ink is dark, as it will be on the signed PDF.
        className="block aspect-[3/1] w-full touch-none rounded-md border-2 border-dashed border-line-strong bg-white"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <Button type="button" variant="secondary" onClick={clear} disabled={empty}>
        <Eraser aria-hidden className="mr-2 size-4" /> Clear
      </Button>
    </div>
  );
}

export function SignForm({
  action,
  portalId,
  taskId,
  defaultName,
  consentText,
  portalHref,
}: {
  action: FormAction<SignFormState>;
  portalId: string;
  taskId: string;
  defaultName: string;
  consentText: string;
  portalHref: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [method, setMethod] = useState<"typed" | "drawn">(state.values?.method === "drawn" ? "drawn" : "typed");
  const [drawing, setDrawing] = useState("");

  if (state.signedFileId) {
    return (
      <div role="status" className="space-y-3">
        <p className="flex items-center gap-2 text-lg font-semibold text-success">
          <CheckCircle2 aria-hidden className="size-5" /> Signed. Thank you!
        </p>
        <p className="text-sm text-fg-2">The signed copy is now in your portal, next to the original.</p>
        <Link className="inline-block font-medium text-brand-ink underline" href={portalHref}>
          Back to the portal
        </Link>
      </div>
    );
  }

  const tab = (value: "typed" | "drawn", label: string, Icon: typeof Type) => (
    <button
      type="button"
      role="radio"
      aria-checked={method === value}
      onClick={() => setMethod(value)}
      className={`flex flex-1 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink ${
        method === value ? "bg-brand text-white" : "bg-surface text-fg-2 ring-1 ring-line-strong hover:bg-subtle"
      }`}
    >
      <Icon aria-hidden className="size-4" /> {label}
    </button>
  );

  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="portalId" value={portalId} />
      <input type="hidden" name="taskId" value={taskId} />
      <input type="hidden" name="method" value={method} />
      <input type="hidden" name="drawing" value={method === "drawn" ? drawing : ""} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <div role="radiogroup" aria-label="How to sign" className="flex gap-2">
        {tab("typed", "Type my name", Type)}
        {tab("drawn", "Draw my signature", PenLine)}
      </div>
      {method === "typed" ? (
        <Input label="Your full name" id="typedName" name="typedName" autoComplete="name" defaultValue={state.values?.typedName ?? defaultName} />
      ) : (
        <DrawPad onChange={setDrawing} />
      )}
      <FieldError id="signature-error" message={state.fieldErrors?.signature} />
      <div>
        <Checkbox id="consent" name="consent" label="I agree to sign electronically" description={consentText} />
        <FieldError id="consent-error" message={state.fieldErrors?.consent} />
      </div>
      <Button type="submit" disabled={pending} className="w-full sm:w-auto">
        {pending ? "Signing…" : "Sign the document"}
      </Button>
    </form>
  );
}
