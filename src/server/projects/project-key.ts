import { randomBytes } from "node:crypto";

/** 32 lowercase hex characters from the CSPRNG: the shape Sentry SDKs expect of a public key. */
export function generatePublicKey(): string {
  return randomBytes(16).toString("hex");
}
