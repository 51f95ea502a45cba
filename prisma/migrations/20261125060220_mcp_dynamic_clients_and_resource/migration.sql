-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "isPublic" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "orgId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "OAuthAuthorizationCode" ADD COLUMN     "resource" TEXT;

-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN     "resource" TEXT;
