-- AlterTable
ALTER TABLE "IdempotencyRecord" ADD COLUMN     "claimToken" TEXT,
ADD COLUMN     "claimedAt" TIMESTAMP(3);
