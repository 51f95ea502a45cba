import { AppError } from "@/lib/errors";
import { readCappedText } from "@/lib/request-body";

/**
 * Answered before the body is read to its end: the rest of it is still on the connection, where a
 * kept-alive connection's next request would be read from, so the connection closes after this
 * answer (RFC 9112 9.6), whichever server sends it.
 */
const tooLarge = (max: number) => new AppError("payload_too_large", `The request body is larger than ${max} bytes`, { Connection: "close" });

/** The raw body, at most `maxBytes` (declared or read): 413 otherwise. */
export function readBody(req: Request, maxBytes: number): Promise<string> {
  return readCappedText(req, maxBytes, () => tooLarge(maxBytes));
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
