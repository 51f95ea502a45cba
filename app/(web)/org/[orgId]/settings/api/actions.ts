"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ClientActionState, ClientFormValues, ClientProfileState, CreateClientState } from "@/components/oauth/state";
import { createOAuthClient } from "@/lib/oauth/clients/create-client";
import { deleteOAuthClient, rotateClientSecret } from "@/lib/oauth/clients/manage-client";
import { updateClientProfile } from "@/lib/oauth/clients/profile";
import { clientInputSchema, type ClientInput } from "@/lib/oauth/clients/schemas";
import { orgAction } from "@/lib/web/org-action";

// API settings: admins only, whatever page rendered the form.

const path = (orgId: string) => `/org/${orgId}/settings/api`;
const admin = { minRole: "admin", returnTo: path } as const;

const clientForm = z.object({ name: z.string(), redirect_uris: z.string(), allowed_scope: z.array(z.string()) });

function formValues(formData: FormData): ClientFormValues {
  return {
    name: String(formData.get("name") ?? ""),
    redirectUris: String(formData.get("redirect_uris") ?? ""),
    scopes: formData.getAll("allowed_scope").map(String),
  };
}

/**
 * The form's input against the clients' own schema, so that the message can say which line of the
 * redirect URIs is wrong rather than a field path like redirectUris.1.
 */
function parseClientForm(form: z.output<typeof clientForm>): { data: ClientInput } | { field: string; message: string } {
  const redirectUris = form.redirect_uris
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const parsed = clientInputSchema.safeParse({ name: form.name, redirectUris, allowedScopes: form.allowed_scope });
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const [field, index] = issue?.path ?? [];
  const message = issue?.message ?? "is invalid";
  if (field === "redirectUris") {
    return {
      field: "redirect_uris",
      message: typeof index === "number" ? `Redirect URI on line ${index + 1} (${redirectUris[index]}) ${message}.` : `Redirect URIs ${message}.`,
    };
  }
  return field === "name" ? { field: "name", message: `Name ${message}.` } : { field: "allowed_scope", message: `Allowed scopes ${message}.` };
}

export const createClientAction = orgAction(
  { ...admin, input: clientForm, values: formValues, fields: ["name", "redirect_uris", "allowed_scope"] },
  async ({ orgId, viewer }, form, formData): Promise<CreateClientState> => {
    const input = parseClientForm(form);
    if ("field" in input) return { fieldErrors: { [input.field]: input.message }, values: formValues(formData) };
    const { client, secret } = await createOAuthClient({ viewer, ...input.data });
    revalidatePath(path(orgId));
    return { created: { name: client.name, clientId: client.clientId, secret } };
  },
);

const byId = z.object({ id: z.string() });

export const rotateSecretAction = orgAction({ ...admin, input: byId }, async ({ orgId, viewer }, { id }): Promise<ClientActionState> => {
  const { secret } = await rotateClientSecret({ viewer, id });
  revalidatePath(path(orgId));
  return { secret };
});

export const deleteClientAction = orgAction({ ...admin, input: byId }, async ({ orgId, viewer }, { id }): Promise<ClientActionState> => {
  await deleteOAuthClient({ viewer, id });
  revalidatePath(path(orgId));
  return {};
});

// The form's inputs are named as the domain's fields, so its errors land at the right input.
const profileForm = z.object({ id: z.string(), publisherName: z.string(), websiteUrl: z.string(), logoUrl: z.string() });
const profileValues = (formData: FormData) => ({
  publisherName: String(formData.get("publisherName") ?? ""),
  websiteUrl: String(formData.get("websiteUrl") ?? ""),
  logoUrl: String(formData.get("logoUrl") ?? ""),
});

export const updateClientProfileAction = orgAction(
  { ...admin, input: profileForm, values: profileValues, fields: ["publisherName", "websiteUrl", "logoUrl"] },
  async ({ orgId, viewer }, { id, ...input }): Promise<ClientProfileState> => {
    const profile = await updateClientProfile({ viewer, id, ...input });
    revalidatePath(path(orgId));
    return { saved: Date.now(), values: { publisherName: profile.publisherName ?? "", websiteUrl: profile.websiteUrl ?? "", logoUrl: profile.logoUrl ?? "" } };
  },
);
