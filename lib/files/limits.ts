/**
 * Files are stored with 32-bit sizes: at most 2 GiB - 1 bytes. The one definition, read by the
 * upload schemas and actions on the server and by the uploader in the browser (this module
 * imports nothing, so it adds nothing to a client bundle).
 */
export const MAX_FILE_SIZE = 2_147_483_647;
