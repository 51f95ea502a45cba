-- AlterTable
ALTER TABLE "PortalGuest" ADD COLUMN     "lastSeenAt" TIMESTAMP(3);
