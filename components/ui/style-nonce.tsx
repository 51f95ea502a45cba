"use client";

import { setNonce } from "get-nonce";

/**
 * The CSP nonce of the document in the browser: Next.js puts it on its scripts, whose `nonce`
 * property keeps it (the attribute reads empty once the page has loaded).
 */
function documentNonce(): string | undefined {
  if (typeof document === "undefined") return undefined;
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}

/**
 * Gives the CSP nonce to the Radix primitives' helpers that add <style> elements at run time
 * (react-remove-scroll's scroll lock under dialogs and menus, through get-nonce): without it the
 * page's `style-src 'nonce-…'` policy blocks them, and the page behind a dialog still scrolls.
 * Rendered once by the root layout. In the browser the nonce is the document's, read from the
 * page itself: the layout renders again for every server action and refresh, each a request with
 * a fresh nonce that the loaded document's policy does not know.
 */
export function StyleNonce({ nonce }: { nonce: string | undefined }) {
  const value = documentNonce() ?? nonce;
  if (value) setNonce(value);
  return null;
}
