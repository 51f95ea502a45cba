// A plain module: what a "use client" module exports reaches server components only as client references.

/** The bulk request form, which the portal list's row checkboxes belong to (`form` attribute). */
export const BULK_FORM_ID = "bulk-request-form";
