import { AppError } from "@/lib/errors";

/**
 * Answered before the body is read to its end: the rest of it is still on the connection, where a
 * kept-alive connection's next request would be read from, so the connection closes after this
 * answer (RFC 9112 9.6), whichever server sends it.
 */
const tooLarge = (max: number) => new AppError("payload_too_large", `The request body is larger than ${max} bytes`, { Connection: "close" });

/**
 * The raw body, at most `maxBytes`: a declared Content-Length above it is refused before reading,
 * and the bytes actually read are counted too (the header may be absent or wrong).
 */
export async function readBody(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return "";

  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** An empty body is `{}`, so that a missing required field is reported by name. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_request", "Malformed JSON body");
  }
}
