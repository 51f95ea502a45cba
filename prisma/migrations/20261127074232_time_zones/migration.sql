-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "defaultTimeZone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "timeZone" TEXT;
