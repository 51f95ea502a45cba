-- CreateEnum
CREATE TYPE "TaskReview" AS ENUM ('accepted', 'returned');

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "review" "TaskReview",
ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "reviewedById" UUID;

-- AlterTable
ALTER TABLE "NotificationPreference" ADD COLUMN     "requests" "NotificationMode" NOT NULL DEFAULT 'immediately';

-- CreateTable
CREATE TABLE "BatchedNotice" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "line" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "BatchedNotice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BatchedNotice_userId_orgId_kind_sentAt_idx" ON "BatchedNotice"("userId", "orgId", "kind", "sentAt");

-- CreateIndex
CREATE UNIQUE INDEX "BatchedNotice_userId_kind_sourceId_key" ON "BatchedNotice"("userId", "kind", "sourceId");

-- AddForeignKey
ALTER TABLE "BatchedNotice" ADD CONSTRAINT "BatchedNotice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BatchedNotice" ADD CONSTRAINT "BatchedNotice_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
