import { invalidScope } from "@/lib/oauth/token/errors";
import { isScope, parseScopeString, type Scope } from "@/lib/access/scopes";

// The `scope` of a refresh request (RFC 6749 6): it may narrow what the refresh token holds,
// never widen it.

/** The requested scopes, or undefined when the parameter is absent. */
export function parseRequestedScope(value: string | undefined): Scope[] | undefined {
  if (value === undefined) return undefined;
  const { scopes, unknown } = parseScopeString(value);
  if (unknown.length > 0) throw invalidScope(`Unknown scope: ${unknown.join(" ")}`);
  if (scopes.length === 0) throw invalidScope("scope is empty");
  return scopes;
}

/**
 * The access token's scopes: the requested part of what the refresh token holds (all of it when
 * nothing is requested), limited to what the client is still allowed (an administrator may have
 * narrowed the client since the user approved).
 */
export function accessScopes(held: readonly string[], requested: Scope[] | undefined, allowed: readonly Scope[]): Scope[] {
  const heldScopes = held.filter(isScope);
  const beyond = (requested ?? []).filter((s) => !heldScopes.includes(s));
  if (beyond.length > 0) throw invalidScope(`A refresh cannot widen the grant; not granted: ${beyond.join(" ")}`);
  const scopes = (requested ?? heldScopes).filter((s) => allowed.includes(s));
  if (scopes.length === 0) throw invalidScope("The client may no longer use any of these scopes");
  return scopes;
}
