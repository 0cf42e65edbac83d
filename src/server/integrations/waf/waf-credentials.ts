import type { SecretBox, SecretContext } from "../../secrets/secret-box";

/** The purpose sealed values of this integration are bound to (with the organization and the field). */
export const WAF_SECRET_PURPOSE = "aws-waf";
export type WafSealedField = "accessKeyId" | "secretAccessKey";

export const wafSecretContext = (organizationId: string, field: WafSealedField): SecretContext => ({
  owner: `organization:${organizationId}`,
  purpose: WAF_SECRET_PURPOSE,
  field,
});

export function sealWafKeys(box: SecretBox, organizationId: string, keys: { accessKeyId: string; secretAccessKey: string }) {
  return {
    accessKeyIdSealed: box.seal(keys.accessKeyId, wafSecretContext(organizationId, "accessKeyId")),
    secretAccessKeySealed: box.seal(keys.secretAccessKey, wafSecretContext(organizationId, "secretAccessKey")),
  };
}

export function openWafKeys(box: SecretBox, organizationId: string, sealed: { accessKeyIdSealed: string; secretAccessKeySealed: string }) {
  return {
    accessKeyId: box.open(sealed.accessKeyIdSealed, wafSecretContext(organizationId, "accessKeyId")),
    secretAccessKey: box.open(sealed.secretAccessKeySealed, wafSecretContext(organizationId, "secretAccessKey")),
  };
}
