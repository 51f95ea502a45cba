"use server";

import { revalidatePath } from "next/cache";
import type { ClientActionState, CreateClientState } from "@/components/oauth/state";
import { getWebViewer } from "@/lib/access/web-viewer";
import { isAppError } from "@/lib/errors";
import { createOAuthClient } from "@/lib/oauth/clients/create-client";
import { deleteOAuthClient, rotateClientSecret } from "@/lib/oauth/clients/manage-client";
import { clientInputSchema, type ClientInput } from "@/lib/oauth/clients/schemas";

// API settings: the domain functions refuse anyone but an admin (lib/access), whatever page
// rendered the form.

const path = (orgId: string) => `/org/${orgId}/settings/api`;

/**
 * The form's input against the clients' own schema, so that the message can say which line of the
 * redirect URIs is wrong rather than a field path like redirectUris.1.
 */
function parseInput(values: NonNullable<CreateClientState["values"]>): { data: ClientInput } | { error: string } {
  const redirectUris = values.redirectUris.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const parsed = clientInputSchema.safeParse({ name: values.name, redirectUris, allowedScopes: values.scopes });
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const [field, index] = issue?.path ?? [];
  const message = issue?.message ?? "is invalid";
  if (field === "redirectUris" && typeof index === "number") return { error: `Redirect URI on line ${index + 1} (${redirectUris[index]}) ${message}.` };
  const label = field === "name" ? "Name" : field === "redirectUris" ? "Redirect URIs" : "Allowed scopes";
  return { error: `${label} ${message}.` };
}

export async function createClientAction(orgId: string, _prev: CreateClientState, formData: FormData): Promise<CreateClientState> {
  const values = {
    name: String(formData.get("name") ?? ""),
    redirectUris: String(formData.get("redirect_uris") ?? ""),
    scopes: formData.getAll("allowed_scope").map(String),
  };
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    const input = parseInput(values);
    if ("error" in input) return { error: input.error, values };
    const { client, secret } = await createOAuthClient({ viewer, ...input.data });
    revalidatePath(path(orgId));
    return { created: { name: client.name, clientId: client.clientId, secret } };
  } catch (e) {
    if (isAppError(e)) return { error: e.message, values };
    throw e;
  }
}

export async function rotateSecretAction(orgId: string, _prev: ClientActionState, formData: FormData): Promise<ClientActionState> {
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    const { secret } = await rotateClientSecret({ viewer, id: String(formData.get("id") ?? "") });
    revalidatePath(path(orgId));
    return { secret };
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}

export async function deleteClientAction(orgId: string, _prev: ClientActionState, formData: FormData): Promise<ClientActionState> {
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    await deleteOAuthClient({ viewer, id: String(formData.get("id") ?? "") });
    revalidatePath(path(orgId));
    return {};
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}
