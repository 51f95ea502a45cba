/**
 * A request's body as UTF-8 text, at most `maxBytes`: a declared Content-Length above it is refused
 * before anything is read, and the bytes actually read are counted as well. `tooLarge` makes the
 * error to throw (each caller answers in its own error shape).
 *
 * A body whose length is declared and within the bound is read in one piece (`arrayBuffer()`): the
 * HTTP server delivers exactly the declared bytes, and the application server then reads them
 * straight from the connection, without building a web stream for them. A body of undeclared
 * length (chunked) is read as a stream and counted as it arrives, so no more than `maxBytes` is
 * ever buffered.
 */
export async function readCappedText(req: Request, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const declaredHeader = req.headers.get("content-length");
  const declared = declaredHeader === null ? Number.NaN : Number(declaredHeader);
  if (declared > maxBytes) throw tooLarge();
  if (Number.isSafeInteger(declared) && declared >= 0) {
    const bytes = Buffer.from(await req.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge();
    return bytes.toString("utf8");
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
