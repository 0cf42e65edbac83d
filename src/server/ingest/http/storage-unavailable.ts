/** The database could not take the write: ingest answers 503 with Retry-After, never 500. */
export class StorageUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StorageUnavailableError";
  }
}
