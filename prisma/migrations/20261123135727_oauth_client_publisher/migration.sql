-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "logoUrl" TEXT,
ADD COLUMN     "publisherName" TEXT,
ADD COLUMN     "websiteUrl" TEXT;
