// PostgreSQL text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate cannot be encoded as
// UTF-8 (jsonb refuses it; text would store U+FFFD instead). Such strings are refused at the edge,
// naming the field, before anything is looked up or written (D3: 400, never 500).

export const UNSTORABLE_TEXT = "Must not contain NUL characters or unpaired surrogates";

/** Why `value` cannot be stored or looked up as text, or null when it can. */
export function textProblem(value: string): string | null {
  return value.includes("\u0000") || !value.isWellFormed() ? UNSTORABLE_TEXT : null;
}

export const isStorableText = (value: string): boolean => textProblem(value) === null;

/**
 * The first string of a parsed JSON value (or an object key) that cannot be stored, as
 * `field.path: problem`; `root` names the value itself.
 */
export function findTextProblem(value: unknown, root: string, path: string[] = []): string | null {
  const here = () => (path.length > 0 ? path.join(".") : root);
  if (typeof value === "string") {
    const problem = textProblem(value);
    return problem && `${here()}: ${problem}`;
  }
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    // An unstorable key is named by its parent and a printable form of the key.
    if (keyProblem) return `${here()}: a key ${keyProblem.charAt(0).toLowerCase()}${keyProblem.slice(1)} (${JSON.stringify(key)})`;
    const found = findTextProblem(item, root, [...path, key]);
    if (found) return found;
  }
  return null;
}
