-- CreateEnum
CREATE TYPE "SigningOrder" AS ENUM ('sequential', 'parallel');

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "signedFileId" UUID,
ADD COLUMN     "signingOrder" "SigningOrder" NOT NULL DEFAULT 'sequential';

-- CreateTable
CREATE TABLE "TaskSigner" (
    "id" UUID NOT NULL,
    "taskId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "type" "AssigneeType" NOT NULL,
    "name" TEXT,
    "email" TEXT NOT NULL,
    "signedAt" TIMESTAMP(3),

    CONSTRAINT "TaskSigner_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TaskSigner_userId_idx" ON "TaskSigner"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskSigner_taskId_userId_key" ON "TaskSigner"("taskId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskSigner_taskId_position_key" ON "TaskSigner"("taskId", "position");

-- AddForeignKey
ALTER TABLE "TaskSigner" ADD CONSTRAINT "TaskSigner_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskSigner" ADD CONSTRAINT "TaskSigner_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
