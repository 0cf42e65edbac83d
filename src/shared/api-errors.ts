/** One rejected input field as both transports report it: `path` is dotted (`items.0.name`), empty for the input itself. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** The details of a VALIDATION_ERROR: REST's `error.details`, tRPC's `error.data.details`. */
export interface ValidationErrorDetails {
  issues: ValidationIssue[];
}
