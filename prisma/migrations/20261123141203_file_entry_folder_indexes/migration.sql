-- CreateIndex
CREATE INDEX "FileEntry_portalId_parentId_isFolder_name_idx" ON "FileEntry"("portalId", "parentId", "isFolder", "name");

-- CreateIndex
CREATE INDEX "FileEntry_portalId_isFolder_idx" ON "FileEntry"("portalId", "isFolder");

-- CreateIndex
CREATE INDEX "FileEntry_parentId_idx" ON "FileEntry"("parentId");

-- CreateIndex
CREATE INDEX "FileEntry_deletedAt_idx" ON "FileEntry"("deletedAt");
