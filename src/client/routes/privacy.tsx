import { createFileRoute, Link } from "@tanstack/react-router";
import { AuthLayout } from "@/client/components/auth-layout";

/**
 * The sign-up's "Privacy Policy" where the installation names none of its own (PRIVACY_POLICY_URL
 * unset): what this software stores and where it goes, so a self-hosted sign-up does not ask
 * people to agree to a policy that does not exist. Public, like the other signed-out screens.
 */
export const Route = createFileRoute("/privacy")({
  component: PrivacyScreen,
});

function PrivacyScreen() {
  return (
    <AuthLayout
      title="Privacy Policy"
      description="This Faultline installation is run by its operator, who decides how long data is kept and who may sign up."
      footer={<Link to="/auth/signup">Back to sign up</Link>}
    >
      <div className="grid gap-3 text-sm" data-testid="privacy-policy">
        <p>
          <span className="font-medium">What is stored.</span> Your account (name, email address, a password hash and the sign-in providers you link), your
          sessions (IP address and browser), the organizations and projects you belong to, and the error reports and events your applications send, which may
          contain personal data those applications include.
        </p>
        <p>
          <span className="font-medium">Where it goes.</span> It stays in this installation&apos;s own database. Mail goes to your address; data leaves only for
          the outside services the operator connects (an AI model provider for the chat, AWS WAF, alert channels), and only what they need.
        </p>
        <p>
          <span className="font-medium">Your choices.</span> Settings → Account lets you change your email and password, unlink sign-in providers and delete
          your account, which removes your sessions and accounts at once. For anything else, ask the operator of this installation.
        </p>
      </div>
    </AuthLayout>
  );
}
