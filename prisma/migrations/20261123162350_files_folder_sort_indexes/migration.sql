-- The portal page's folder listing (lib/files/folder-view.ts), written by hand: Prisma cannot
-- declare expression indexes. The parent is compared as COALESCE("parentId", nil uuid) so that the
-- root (parentId NULL) is an equality too and each index gives the rows in sort order for both
-- directions, and folders and files are read apart (isFolder is an equality as well).
CREATE INDEX "FileEntry_folder_page_name_idx" ON "FileEntry"("portalId", (COALESCE("parentId", '00000000-0000-0000-0000-000000000000'::uuid)), "isFolder", "name", "id");
CREATE INDEX "FileEntry_folder_page_size_idx" ON "FileEntry"("portalId", (COALESCE("parentId", '00000000-0000-0000-0000-000000000000'::uuid)), "isFolder", "size", "name", "id");
CREATE INDEX "FileEntry_folder_page_type_idx" ON "FileEntry"("portalId", (COALESCE("parentId", '00000000-0000-0000-0000-000000000000'::uuid)), "isFolder", "extension", "name", "id");
CREATE INDEX "FileEntry_folder_page_date_idx" ON "FileEntry"("portalId", (COALESCE("parentId", '00000000-0000-0000-0000-000000000000'::uuid)), "isFolder", "registeredAt", "name", "id");
CREATE INDEX "FileEntry_folder_page_uploader_idx" ON "FileEntry"("portalId", (COALESCE("parentId", '00000000-0000-0000-0000-000000000000'::uuid)), "isFolder", "uploadedById", "name", "id");
