import { openActionUrl, openSigningSecret } from "../alert-action-secrets";
import type { AlertMessage } from "../alert-message";
import { PermanentDeliveryError, type ChannelDefinition } from "./alert-channel";
import { SIGNATURE_HEADER, signatureHeader } from "./webhook";

/**
 * A channel that POSTs a JSON body to the action's sealed URL (a chat's incoming webhook, or the
 * tenant's own endpoint). `signed`: the body is signed with the action's signing secret, if it has one.
 */
export function urlChannel(bodyOf: (message: AlertMessage) => unknown, options: { signed: boolean } = { signed: false }): ChannelDefinition {
  return {
    async send({ deps, notification, action, message }) {
      if (!action.urlSealed) throw new PermanentDeliveryError("The action has no URL");
      const url = openActionUrl(deps.secretBox, notification.projectId, action.id, action.urlSealed);
      const body = JSON.stringify(bodyOf(message));
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.signed && action.signingSecretSealed) {
        const secret = openSigningSecret(deps.secretBox, notification.projectId, action.id, action.signingSecretSealed);
        headers[SIGNATURE_HEADER] = signatureHeader(secret, body);
      }
      const response = await deps.outbound.request({ url, method: "POST", headers, body });
      if (response.status >= 200 && response.status < 300) return "sent";
      const detail = `The receiver answered HTTP ${response.status}`;
      // 4xx (except 408/429) means the request itself is wrong (a revoked Slack URL): retrying cannot help.
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) throw new PermanentDeliveryError(detail);
      throw new Error(detail);
    },
  };
}
