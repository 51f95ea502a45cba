-- CreateTable
CREATE TABLE "OAuthConsentFormUse" (
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthConsentFormUse_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "OAuthConsentFormUse_expiresAt_idx" ON "OAuthConsentFormUse"("expiresAt");
