-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "previousSecretEncrypted" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3);
