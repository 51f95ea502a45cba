import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { filesApi } from "@/test/routes/files-api";
import { removeObjects } from "@/lib/test-support/storage";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { resetS3ClientForTests } from "@/lib/storage/s3";

// With the object store frozen (it accepts connections and never answers) a
// storage call gives up after S3_TIMEOUT_MS with 503 service_unavailable and Retry-After, instead
// of hanging; after recovery the same request registers the file, and a repeat returns the same entry.

describe("a frozen object store", () => {
  let frozen: net.Server;
  const held: net.Socket[] = [];
  let frozenUrl = "";

  beforeAll(async () => {
    frozen = net.createServer((socket) => void held.push(socket.on("error", () => undefined)));
    await new Promise<void>((resolve) => frozen.listen(0, "127.0.0.1", resolve));
    frozenUrl = `http://127.0.0.1:${(frozen.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((resolve) => frozen.close(() => resolve()));
  });

  function useStore(endpoint: string | undefined, timeoutMs?: string): void {
    process.env["S3_TIMEOUT_MS"] = timeoutMs;
    if (timeoutMs === undefined) delete process.env["S3_TIMEOUT_MS"];
    if (endpoint !== undefined) process.env["S3_ENDPOINT"] = endpoint;
    resetEnvForTests();
    resetS3ClientForTests();
  }

  it("files/complete answers 503 with Retry-After within the timeout; after recovery it registers the file once", async () => {
    const ctx = await createApiContext();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = filesApi(ctx.token);
    const bytes = "statement";
    const started = await api.upload(portal.id, { filename: "a.txt", contentType: "text/plain", size: bytes.length });
    expect((await fetch(started.json.upload_url, { method: "PUT", body: bytes, headers: { "Content-Type": "text/plain" } })).status).toBe(200);
    const body = { file_id: started.json.file_id, filename: "a.txt" };

    const realEndpoint = process.env["S3_ENDPOINT"];
    useStore(frozenUrl, "800");
    let frozenAnswer;
    const began = Date.now();
    try {
      frozenAnswer = await api.complete(portal.id, body);
    } finally {
      useStore(realEndpoint);
    }
    const took = Date.now() - began;
    expect(frozenAnswer.status).toBe(503);
    expect(frozenAnswer.json).toEqual({ error: "service_unavailable", error_description: "The file storage did not answer in time; retry later" });
    expect(frozenAnswer.headers.get("retry-after")).toBe("30");
    expect(frozenAnswer.headers.get("x-api-version")).toBe("1.0.2");
    expect(took).toBeLessThan(5_000);
    expect(held.length).toBeGreaterThan(0);
    // Nothing was registered meanwhile.
    expect((await api.list(portal.id)).json).toEqual([]);

    const recovered = await api.complete(portal.id, body);
    expect(recovered.status).toBe(201);
    const repeat = await api.complete(portal.id, body);
    expect(repeat.status).toBe(201);
    expect(repeat.json).toEqual(recovered.json);
    await removeObjects(ctx.org.id);
  });
});
