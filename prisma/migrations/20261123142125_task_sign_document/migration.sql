-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "documentFileId" UUID,
ADD COLUMN     "signaturePlacement" JSONB;
