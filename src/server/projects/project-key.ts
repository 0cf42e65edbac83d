import { randomBytes } from "node:crypto";

/** 32 lowercase hex characters from the CSPRNG: the shape Sentry SDKs expect of a public key. */
export function generatePublicKey(): string {
  return randomBytes(16).toString("hex");
}

/** `{scheme}://{publicKey}@{host[:port]}/{projectNumber}`, the DSN Sentry SDKs are configured with. */
export function buildDsn(apiUrl: string, publicKey: string, projectNumber: number): string {
  const url = new URL(apiUrl);
  return `${url.protocol}//${publicKey}@${url.host}/${projectNumber}`;
}
