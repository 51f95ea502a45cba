import { PutObjectCommand } from "@aws-sdk/client-s3";
import { db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";

/** A registered PDF of a portal, its bytes in the bucket: the document a Sign Document task names. */
export async function storePortalPdf({
  orgId,
  portalId,
  uploadedById,
  name,
  bytes,
}: {
  orgId: string;
  portalId: string;
  uploadedById: string;
  name: string;
  bytes: Buffer;
}) {
  const id = crypto.randomUUID();
  const storageKey = fileStorageKey(orgId, id);
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: bytes, ContentType: "application/pdf" }));
  return db.fileEntry.create({
    data: {
      id,
      orgId,
      portalId,
      name,
      extension: "pdf",
      contentType: "application/pdf",
      size: bytes.length,
      storageKey,
      uploadedById,
      registeredAt: new Date(),
    },
  });
}
