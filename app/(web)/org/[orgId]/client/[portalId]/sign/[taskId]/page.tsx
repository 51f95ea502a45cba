import type { Metadata } from "next";
import { ArrowLeft, ExternalLink } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PdfPreview } from "@/components/files/pdf-preview";
import { SignForm } from "@/components/guest-view/sign-form";
import { Card } from "@/components/ui/card";
import { findWebViewer } from "@/lib/web/web-viewer";
import { isAppError } from "@/lib/errors";
import { guestPortalPath } from "@/lib/links";
import { getDocumentToSign } from "@/lib/signing/sign-document";
import { signAction } from "../../actions";

type Params = { orgId: string; portalId: string; taskId: string };

/** The document to sign for this viewer; a task they may not sign (or already signed) is not found. */
const load = cache(async (orgId: string, portalId: string, taskId: string) => {
  const viewer = await findWebViewer(orgId, `${guestPortalPath(orgId, portalId)}/sign/${taskId}`);
  if (!viewer) notFound();
  try {
    const doc = await getDocumentToSign({ viewer, taskId });
    if (doc.portalId !== portalId) notFound();
    return { viewer, doc, refusal: null, signed: false };
  } catch (e) {
    // Out of turn, or signed by this signer while others still sign: the reason, as it is.
    if (isAppError(e) && e.field === "signers") return { viewer, doc: null, refusal: e.message, signed: e.code === "conflict" };
    // Signed already (this page re-renders after signing): say so instead of a missing page.
    if (isAppError(e) && e.code === "conflict") return { viewer, doc: null, refusal: null, signed: true };
    if (isAppError(e) && ["not_found", "forbidden", "invalid_request"].includes(e.code)) notFound();
    throw e;
  }
});

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { orgId, portalId, taskId } = await params;
  const { doc, signed } = await load(orgId, portalId, taskId);
  return { title: doc ? `Sign ${doc.name}` : signed ? "Signed" : "Not your turn to sign" };
}

export default async function SignPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId, taskId } = await params;
  const { doc, refusal, signed } = await load(orgId, portalId, taskId);
  const portalHref = guestPortalPath(orgId, portalId);
  if (!doc && refusal)
    return (
      <div className="mx-auto max-w-3xl">
        <Card title={signed ? "You have signed" : "Not your turn yet"}>
          <p className="mb-3 text-sm text-fg-2" role="status" data-testid="signing-refusal">
            {refusal}
          </p>
          <Link href={portalHref} className="font-medium text-brand-ink underline">
            Back to the portal
          </Link>
        </Card>
      </div>
    );
  if (!doc)
    return (
      <div className="mx-auto max-w-3xl">
        <Card title="This document is signed">
          <p className="mb-3 text-sm text-fg-2">The signed copy is in your portal, next to the original.</p>
          <Link href={portalHref} className="font-medium text-brand-ink underline">
            Back to the portal
          </Link>
        </Card>
      </div>
    );
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link href={portalHref} className="inline-flex items-center gap-1 text-sm text-brand-ink underline">
        <ArrowLeft aria-hidden className="size-4" /> Back to the portal
      </Link>
      <div>
        <p className="text-sm text-fg-muted">
          Please read, then sign
          {doc.signers ? ` (${doc.signers.signed} of ${doc.signers.total} signers have signed; the copy below carries their signatures)` : ""}
        </p>
        <h1 className="text-2xl font-semibold">{doc.taskTitle}</h1>
        {doc.taskDescription ? <p className="mt-2 whitespace-pre-line text-sm text-fg-2">{doc.taskDescription}</p> : null}
      </div>
      <Card title="1. Read the document">
        <p className="mb-3 text-sm text-fg-2">{doc.name}</p>
        {/* Scrolls on its own: reachable with the keyboard (Tab, then the arrow keys). */}
        <div
          role="region"
          aria-label={`Preview of ${doc.name}`}
          tabIndex={0}
          className="mb-3 max-h-[70vh] overflow-y-auto rounded-md border border-line bg-subtle p-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink"
        >
          <PdfPreview url={doc.url} title={doc.name} />
        </div>
        <a href={doc.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-sm font-medium text-brand-ink underline">
          Open the document in a new tab <ExternalLink aria-hidden className="size-4" />
        </a>
      </Card>
      <Card title="2. Sign">
        <SignForm
          action={signAction.bind(null, orgId)}
          portalId={portalId}
          taskId={taskId}
          defaultName={doc.signerName}
          consentText="Your electronic signature is as valid as your handwritten one. The firm keeps a record of when and from where you signed."
          portalHref={portalHref}
        />
      </Card>
    </div>
  );
}
