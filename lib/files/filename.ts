import { displayNameProblem } from "@/lib/text";

// File names and extensions as the API accepts them (spec section 4).

const MAX_FILENAME_LENGTH = 255;
const MAX_EXTENSION_LENGTH = 50;

// C0 and C1 control characters and DEL.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a (trimmed) file name is refused, or null when it is fine. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return "Must not be empty";
  if (name.length > MAX_FILENAME_LENGTH) return `At most ${MAX_FILENAME_LENGTH} characters`;
  if (name.includes("/") || name.includes("\\")) return "Must not contain path separators";
  if (CONTROL.test(name)) return "Must not contain control characters";
  if (name === "." || name === "..") return "Must be a file name";
  return displayNameProblem(name);
}

/** Why an extension is refused, or null. */
export function extensionProblem(extension: string): string | null {
  if (extension.length > MAX_EXTENSION_LENGTH) return `At most ${MAX_EXTENSION_LENGTH} characters`;
  if (/[/\\.]/.test(extension) || CONTROL.test(extension) || /\s/.test(extension)) return "Letters and digits only, without a dot";
  return null;
}

/** `report.PDF` → `pdf`; `archive.tar.gz` → `gz`; `README`, `.env` and `name.` → "". */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return "";
  return name.slice(dot + 1).toLowerCase();
}

/** An explicit extension: a leading dot dropped, lower-cased. */
export function normalizeExtension(extension: string): string {
  return extension.trim().replace(/^\./, "").toLowerCase();
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/**
 * A media type as signed into the upload URL and stored: `type/subtype`, optionally with
 * parameters (`text/plain; charset=utf-8`), printable ASCII, at most 255 characters.
 */
export function contentTypeProblem(value: string): string | null {
  if (value.length === 0 || value.length > 255) return "1-255 characters";
  if (!/^[\x20-\x7e]+$/.test(value)) return "Printable ASCII only";
  const [essence = ""] = value.split(";");
  if (!MEDIA_TYPE.test(essence.trim())) return "Must be a media type such as application/pdf";
  return null;
}
