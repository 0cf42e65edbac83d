import type { NextFunction, Request, Response } from "express";

// better-auth's database adapter throws this for a field name it does not know. Such names only
// come from the client (list-members' `sortBy`, `filterField`), so it is a bad request.
const UNKNOWN_FIELD = /^Field [\s\S]* not found in model /;

/**
 * Errors better-auth throws instead of printing them (`onAPIError.throw` in auth.ts). An unknown
 * field answers 400 in better-auth's own error shape, without echoing the name back; anything else
 * goes on to the REST error handler, which logs it as one JSON line and answers a generic 500.
 */
export function authErrors(error: unknown, _req: Request, res: Response, next: NextFunction) {
  if (error instanceof Error && error.name === "BetterAuthError" && UNKNOWN_FIELD.test(error.message)) {
    res.status(400).json({ code: "BAD_REQUEST", message: "Unknown field name" });
    return;
  }
  next(error);
}
