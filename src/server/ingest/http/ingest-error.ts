/**
 * Typed failures of the ingest write path. SDKs drop an envelope on any 4xx/5xx and only retry
 * network errors, so every failure must map to one precise status: the ingest HTTP adapter maps
 * `IngestError.status` once. Kept apart from `AppError` because ingest needs 415, which the
 * app-wide family does not carry.
 */
export const INGEST_ERROR_STATUS = {
  malformed: 400,
  invalid_event_id: 400,
  too_deep: 400,
  auth_invalid: 401,
  auth_conflict: 401,
  auth_missing: 403,
  too_large: 413,
  too_many_items: 413,
  unsupported_encoding: 415,
} as const;

export type IngestErrorCode = keyof typeof INGEST_ERROR_STATUS;

/** Plain-data form used by the never-throwing parser results. */
export interface IngestFailure {
  code: IngestErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class IngestError extends Error {
  readonly status: number;

  constructor(
    readonly code: IngestErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "IngestError";
    this.status = INGEST_ERROR_STATUS[code];
  }

  toFailure(): IngestFailure {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static fromFailure(failure: IngestFailure): IngestError {
    return new IngestError(failure.code, failure.message, failure.details);
  }
}
