import type { deviceAuthorization } from "better-auth/plugins";

/**
 * Device authorization (RFC 8628, spec §3 and §9) so a command-line tool can sign in: the tool asks
 * POST /api/auth/device/code, shows the user code and the /device page, and polls
 * POST /api/auth/device/token while a signed-in person approves on that page.
 */
export const DEVICE_CLIENT_ID = "faultline-cli";

/** Spec §9: "Device flow defaults: expiry 30 minutes, polling interval 5 s, device code length 40, user code length 8." */
export const DEVICE_FLOW = { expiresIn: "30m", interval: "5s", deviceCodeLength: 40, userCodeLength: 8 } as const;

export function deviceAuthorizationOptions(appUrl: string): Parameters<typeof deviceAuthorization>[0] {
  return {
    ...DEVICE_FLOW,
    // Only our own tool: a code requested by anything else could phish a session.
    validateClient: (clientId) => clientId === DEVICE_CLIENT_ID,
    verificationUri: `${appUrl}/device`,
  };
}
