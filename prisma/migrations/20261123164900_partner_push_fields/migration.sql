-- AlterTable
ALTER TABLE "PartnerPush" ADD COLUMN     "customerId" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "eventId" UUID;
