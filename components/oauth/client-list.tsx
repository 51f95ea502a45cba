import { ClientActions } from "@/components/oauth/client-actions";
import { ClientProfileForm } from "@/components/oauth/client-profile-form";
import type { ClientActionState, ClientProfileState, FormAction } from "@/components/oauth/state";
import { Time } from "@/components/ui/time";

export interface ClientSummary {
  id: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  allowedScopes: string[];
  secretHint: string;
  /** Registered by an MCP client (RFC 7591): no secret, PKCE. */
  isPublic?: boolean;
  createdAt: Date;
  secretRotatedAt: Date | null;
  publisherName: string | null;
  websiteUrl: string | null;
  logoUrl: string | null;
}

function When({ date }: { date: Date }) {
  return <Time value={date} format="date" />;
}

/** The organization's clients; secrets appear only as their last four characters. */
export function ClientList({
  clients,
  rotate,
  remove,
  updateProfile,
}: {
  clients: ClientSummary[];
  rotate: FormAction<ClientActionState>;
  remove: FormAction<ClientActionState>;
  updateProfile: FormAction<ClientProfileState>;
}) {
  if (clients.length === 0) return <p className="text-sm text-fg-muted">No clients yet.</p>;
  return (
    <ul className="space-y-4">
      {clients.map((c) => (
        <li key={c.id} className="space-y-3 rounded-md border border-line p-4" data-testid="oauth-client" aria-label={c.name}>
          <h3 className="font-semibold">{c.name}</h3>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-fg-muted">Client ID</dt>
            <dd>
              <code className="break-all">{c.clientId}</code>
            </dd>
            <dt className="text-fg-muted">Client secret</dt>
            <dd>
              {c.isPublic ? (
                <span data-testid="secret-hint">None: a public client registered by an MCP client (PKCE)</span>
              ) : (
                <code data-testid="secret-hint">••••{c.secretHint}</code>
              )}
              {c.secretRotatedAt ? (
                <span className="text-fg-subtle">
                  {" "}
                  (rotated <When date={c.secretRotatedAt} />)
                </span>
              ) : null}
            </dd>
            <dt className="text-fg-muted">Redirect URIs</dt>
            <dd>
              <ul>
                {c.redirectUris.map((u) => (
                  <li key={u}>
                    <code className="break-all">{u}</code>
                  </li>
                ))}
              </ul>
            </dd>
            <dt className="text-fg-muted">Allowed scopes</dt>
            <dd>
              <code>{c.allowedScopes.join(" ")}</code>
            </dd>
            <dt className="text-fg-muted">Publisher</dt>
            <dd data-testid="client-publisher">
              {c.publisherName ?? "—"}
              {c.websiteUrl ? (
                <>
                  {" "}
                  · <code className="break-all">{c.websiteUrl}</code>
                </>
              ) : null}
            </dd>
            <dt className="text-fg-muted">Created</dt>
            <dd>
              <When date={c.createdAt} />
            </dd>
          </dl>
          <ClientProfileForm
            id={c.id}
            name={c.name}
            initial={{ publisherName: c.publisherName ?? "", websiteUrl: c.websiteUrl ?? "", logoUrl: c.logoUrl ?? "" }}
            action={updateProfile}
          />
          <ClientActions id={c.id} name={c.name} rotate={rotate} remove={remove} />
        </li>
      ))}
    </ul>
  );
}
