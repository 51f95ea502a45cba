-- DropIndex
DROP INDEX "Event_dispatchedAt_createdAt_idx";

-- CreateIndex
CREATE INDEX "Event_pending_idx" ON "Event"("createdAt", "id") WHERE ("dispatchedAt" IS NULL);
