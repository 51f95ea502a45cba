// PostgreSQL text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate cannot be encoded as
// UTF-8 (jsonb refuses it; text would store U+FFFD instead). Such strings are refused at the edge,
// naming the field, before anything is looked up or written (D3: 400, never 500).

export const UNSTORABLE_TEXT = "Must not contain NUL characters or unpaired surrogates";

/** Why `value` cannot be stored or looked up as text, or null when it can. */
export function textProblem(value: string): string | null {
  return value.includes("\u0000") || !value.isWellFormed() ? UNSTORABLE_TEXT : null;
}

export const isStorableText = (value: string): boolean => textProblem(value) === null;

/** Request bodies and queries nest this deep at most; deeper is refused, not walked. */
export const MAX_JSON_DEPTH = 64;

/**
 * The first string of a parsed JSON value (or an object key) that cannot be stored, as
 * `field.path: problem`; `root` names the value itself. A value nested deeper than
 * MAX_JSON_DEPTH is a problem of its own. Walked with a stack of its own, not by recursion, so a
 * hostile body cannot exhaust the call stack.
 */
export function findTextProblem(value: unknown, root: string): string | null {
  const name = (path: readonly string[]) => (path.length > 0 ? path.join(".") : root);
  // A key is checked just before its value's subtree: the first problem in document order wins.
  const pending: Array<{ value: unknown; path: readonly string[] } | { key: string; path: readonly string[] }> = [{ value, path: [] }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const { path } = next;
    if ("key" in next) {
      const keyProblem = textProblem(next.key);
      // An unstorable key is named by its parent and a printable form of the key.
      if (keyProblem) return `${name(path)}: a key ${keyProblem.charAt(0).toLowerCase()}${keyProblem.slice(1)} (${JSON.stringify(next.key)})`;
      continue;
    }
    const current = next.value;
    if (typeof current === "string") {
      const problem = textProblem(current);
      if (problem) return `${name(path)}: ${problem}`;
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (path.length >= MAX_JSON_DEPTH) return `${name(path)}: Nested more than ${MAX_JSON_DEPTH} levels deep`;
    const entries = Object.entries(current);
    // Pushed in reverse, so they are taken in order.
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      pending.push({ value: item, path: [...path, key] }, { key, path });
    }
  }
  return null;
}

// Names shown to people (files, folders, portals) must read as what they are (Unicode TR 36,
// CWE-451): control characters (Cc), line and paragraph separators, and the invisible format
// characters (Cf) are refused, among them the bidirectional controls that reorder what is shown
// ("invoice\u202Efdp.exe" displays as "invoiceexe.pdf"). ZERO WIDTH NON-JOINER and JOINER stay:
// Persian, Indic scripts and emoji sequences need them and they cannot reorder text.
const HIDDEN_OR_REORDERING = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why `value` cannot be a displayed name (naming the first offending character), or null. */
export function displayNameProblem(value: string): string | null {
  const found = HIDDEN_OR_REORDERING.exec(value);
  if (!found) return null;
  const codePoint = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `Must not contain control, invisible or bidirectional formatting characters (U+${codePoint})`;
}
