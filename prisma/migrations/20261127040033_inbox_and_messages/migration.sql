-- CreateEnum
CREATE TYPE "InboxKind" AS ENUM ('upload', 'answer', 'form', 'signed', 'done', 'message');

-- AlterTable
ALTER TABLE "Membership" ADD COLUMN     "inboxSeenAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "FileEntry" ADD COLUMN     "messageId" UUID;

-- AlterTable
ALTER TABLE "NotificationPreference" ADD COLUMN     "messages" "NotificationMode" NOT NULL DEFAULT 'immediately';

-- CreateTable
CREATE TABLE "Message" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "authorId" UUID,
    "fromFirm" BOOLEAN NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MessageRead" (
    "portalId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MessageRead_pkey" PRIMARY KEY ("portalId","userId")
);

-- CreateTable
CREATE TABLE "InboxItem" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "kind" "InboxKind" NOT NULL,
    "actorUserId" UUID,
    "taskId" UUID,
    "fileId" UUID,
    "messageId" UUID,
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InboxItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InboxSeen" (
    "itemId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InboxSeen_pkey" PRIMARY KEY ("itemId","userId")
);

-- CreateIndex
CREATE INDEX "Message_portalId_createdAt_id_idx" ON "Message"("portalId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InboxItem_orgId_createdAt_id_idx" ON "InboxItem"("orgId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InboxItem_portalId_createdAt_id_idx" ON "InboxItem"("portalId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InboxItem_orgId_kind_createdAt_id_idx" ON "InboxItem"("orgId", "kind", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InboxItem_fileId_idx" ON "InboxItem"("fileId");

-- CreateIndex
CREATE INDEX "InboxItem_messageId_idx" ON "InboxItem"("messageId");

-- CreateIndex
CREATE INDEX "InboxSeen_userId_idx" ON "InboxSeen"("userId");

-- CreateIndex
CREATE INDEX "FileEntry_messageId_idx" ON "FileEntry"("messageId");

-- CreateIndex
CREATE INDEX "Task_orgId_status_dueDate_id_idx" ON "Task"("orgId", "status", "dueDate", "id");

-- AddForeignKey
ALTER TABLE "FileEntry" ADD CONSTRAINT "FileEntry_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MessageRead" ADD CONSTRAINT "MessageRead_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MessageRead" ADD CONSTRAINT "MessageRead_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxSeen" ADD CONSTRAINT "InboxSeen_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "InboxItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxSeen" ADD CONSTRAINT "InboxSeen_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
