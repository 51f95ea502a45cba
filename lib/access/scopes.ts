// The eight scopes (spec section 5), with the meaning shown on the consent screen.

export const SCOPES = {
  "portal:read": "List and view portals, list workflow states",
  "portal:write": "Create and update portals, set workflow state",
  "file:list": "List file names and metadata (no contents)",
  "file:upload": "Upload files",
  "task:read": "List tasks",
  "task:write": "Create, update and complete tasks",
  "guest:invite": "Invite guests to portals",
  "webhook:manage": "Manage webhooks",
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/** Splits a space-separated scope string; duplicates collapse, order follows ALL_SCOPES. */
export function parseScopeString(value: string | null | undefined): { scopes: Scope[]; unknown: string[] } {
  const parts = (value ?? "").split(" ").filter(Boolean);
  const unknown = parts.filter((p) => !isScope(p));
  const set = new Set(parts);
  return { scopes: ALL_SCOPES.filter((s) => set.has(s)), unknown };
}

export function formatScopes(scopes: readonly string[]): string {
  return ALL_SCOPES.filter((s) => scopes.includes(s)).join(" ");
}
