-- A delivery is inserted pending and updated once or twice within seconds (its attempt count, its
-- end). None of the updated columns is indexed, so each update can be a heap-only tuple (no new
-- entry in any of the table's four indexes) when the row's page has room for the new version.
-- Rows are appended, so a full page leaves none: room is kept on each page for those updates.
ALTER TABLE "WebhookDelivery" SET (fillfactor = 75);
