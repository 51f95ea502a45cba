"use client";

import { setNonce } from "get-nonce";

/**
 * Gives this response's CSP nonce to the Radix primitives' helpers that add <style> elements at run
 * time (react-remove-scroll's scroll lock under dialogs and menus, through get-nonce): without it
 * the page's `style-src 'nonce-…'` policy blocks them. Rendered once by the root layout.
 */
export function StyleNonce({ nonce }: { nonce: string | undefined }) {
  if (nonce) setNonce(nonce);
  return null;
}
