/**
 * The largest file a surface downloads: a PDF for the model (20 MiB, the
 * contract's limit). Images are refused past the service's inline limit by
 * their declared size before any download, and by their bytes after it.
 */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
