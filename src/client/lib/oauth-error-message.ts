/** Error codes the auth service appends to the callback URL after a failed provider sign-in or link (§8). */
const MESSAGES: Record<string, string> = {
  state_not_found: "The sign-in took too long or was started in another tab. Please try again.",
  please_restart_the_process: "The sign-in took too long or was started in another tab. Please try again.",
  invalid_callback_request: "The provider sent an invalid answer. Please try again.",
  no_code: "The provider did not complete the sign-in. Please try again.",
  invalid_code: "The provider did not complete the sign-in. Please try again.",
  oauth_provider_not_found: "This sign-in provider is not configured.",
  unable_to_get_user_info: "The provider did not share your profile. Please try again.",
  email_not_found: "The provider did not share an email address for your account.",
  unable_to_link_account: "This provider account could not be linked to your Faultline account.",
  "email_doesn't_match": "The provider account uses a different email address.",
  account_already_linked_to_different_user: "This provider account is already linked to another Faultline user.",
  account_not_linked: "An account with this email exists. Sign in with your password, then link the provider in your account settings.",
  signup_disabled: "Sign-up is disabled on this installation.",
};

export function oauthErrorMessage(code: string): string {
  return MESSAGES[code] ?? `Sign-in failed: ${code.replaceAll("_", " ")}`;
}
