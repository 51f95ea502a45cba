-- CreateEnum
CREATE TYPE "BulkRequestStatus" AS ENUM ('running', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "BulkItemStatus" AS ENUM ('pending', 'sent', 'skipped', 'failed');

-- CreateEnum
CREATE TYPE "RecurrenceFrequency" AS ENUM ('monthly', 'quarterly', 'yearly');

-- CreateEnum
CREATE TYPE "ScheduleStatus" AS ENUM ('active', 'paused', 'ended');

-- CreateTable
CREATE TABLE "BulkRequest" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "createdById" UUID,
    "spec" JSONB NOT NULL,
    "status" "BulkRequestStatus" NOT NULL DEFAULT 'running',
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "total" INTEGER NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BulkRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkRequestItem" (
    "id" UUID NOT NULL,
    "bulkRequestId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "status" "BulkItemStatus" NOT NULL DEFAULT 'pending',
    "taskId" UUID,
    "reason" TEXT,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "BulkRequestItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecurringRequest" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "spec" JSONB NOT NULL,
    "frequency" "RecurrenceFrequency" NOT NULL,
    "dayOfMonth" INTEGER NOT NULL,
    "startPeriod" TEXT NOT NULL,
    "status" "ScheduleStatus" NOT NULL DEFAULT 'active',
    "createdById" UUID,
    "endedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecurringRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecurringOccurrence" (
    "id" UUID NOT NULL,
    "scheduleId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "period" TEXT NOT NULL,
    "taskId" UUID,
    "error" TEXT,
    "occursAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecurringOccurrence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TemplateRequest" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "portalId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "spec" JSONB NOT NULL,
    "frequency" "RecurrenceFrequency",
    "dayOfMonth" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TemplateRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BulkRequest_orgId_createdAt_idx" ON "BulkRequest"("orgId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "BulkRequest_orgId_idempotencyKey_key" ON "BulkRequest"("orgId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "BulkRequestItem_bulkRequestId_status_idx" ON "BulkRequestItem"("bulkRequestId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "BulkRequestItem_bulkRequestId_portalId_key" ON "BulkRequestItem"("bulkRequestId", "portalId");

-- CreateIndex
CREATE INDEX "RecurringRequest_status_idx" ON "RecurringRequest"("status");

-- CreateIndex
CREATE INDEX "RecurringRequest_portalId_idx" ON "RecurringRequest"("portalId");

-- CreateIndex
CREATE INDEX "RecurringOccurrence_scheduleId_idx" ON "RecurringOccurrence"("scheduleId");

-- CreateIndex
CREATE UNIQUE INDEX "RecurringOccurrence_portalId_scheduleId_period_key" ON "RecurringOccurrence"("portalId", "scheduleId", "period");

-- CreateIndex
CREATE INDEX "TemplateRequest_portalId_position_idx" ON "TemplateRequest"("portalId", "position");

-- AddForeignKey
ALTER TABLE "BulkRequest" ADD CONSTRAINT "BulkRequest_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkRequestItem" ADD CONSTRAINT "BulkRequestItem_bulkRequestId_fkey" FOREIGN KEY ("bulkRequestId") REFERENCES "BulkRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkRequestItem" ADD CONSTRAINT "BulkRequestItem_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecurringRequest" ADD CONSTRAINT "RecurringRequest_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecurringRequest" ADD CONSTRAINT "RecurringRequest_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecurringOccurrence" ADD CONSTRAINT "RecurringOccurrence_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "RecurringRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TemplateRequest" ADD CONSTRAINT "TemplateRequest_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TemplateRequest" ADD CONSTRAINT "TemplateRequest_portalId_fkey" FOREIGN KEY ("portalId") REFERENCES "Portal"("id") ON DELETE CASCADE ON UPDATE CASCADE;
