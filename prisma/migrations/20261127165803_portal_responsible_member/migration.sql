-- AlterTable
ALTER TABLE "Portal" ADD COLUMN     "responsibleMemberId" UUID;

-- CreateIndex
CREATE INDEX "Portal_responsibleMemberId_idx" ON "Portal"("responsibleMemberId");

-- AddForeignKey
ALTER TABLE "Portal" ADD CONSTRAINT "Portal_responsibleMemberId_fkey" FOREIGN KEY ("responsibleMemberId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
