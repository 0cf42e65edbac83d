import { useState, type FormEvent } from "react";
import { CheckCircle2Icon, Loader2Icon } from "lucide-react";
import { CLOUDFRONT_REGION, ConnectWafInput, WAF_REGIONS, WAF_SCOPES } from "@/shared/waf.inputs";
import type { WafSetupView, WafTestResult } from "@/shared/waf.views";
import { trpc, validationIssuesOf } from "@/client/lib/trpc";
import { errorMessage } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CopyButton } from "@/client/components/copy-button";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Alert, AlertDescription, AlertTitle } from "@/client/components/ui/alert";
import { Button } from "@/client/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";

type Mode = "keys" | "role";
type Field = "region" | "scope" | "accessKeyId" | "secretAccessKey" | "roleArn";

const selectClass = "h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs dark:bg-input/30";

/** The least an IAM policy must allow, ready to paste. */
function policyJson(actions: string[]) {
  return JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: actions, Resource: "*" }] }, null, 2);
}

/**
 * The connect drawer: region and scope, then an IAM user's access key or a role ARN (assumed with
 * this organization's ExternalId). "Test connection" runs ListWebACLs with what was typed and
 * shows what AWS answered; nothing is stored until "Connect", which the server tests again.
 */
export function WafConnectDrawer({ open, onOpenChange, setup }: { open: boolean; onOpenChange: (open: boolean) => void; setup: WafSetupView }) {
  const current = setup.connection;
  const [mode, setMode] = useState<Mode>(current?.roleArn ? "role" : "keys");
  const [region, setRegion] = useState<string>(current?.region ?? "us-east-1");
  const [scope, setScope] = useState<string>(current?.scope ?? "REGIONAL");
  const [accessKeyId, setAccessKeyId] = useState("");
  const [secretAccessKey, setSecretAccessKey] = useState("");
  const [roleArn, setRoleArn] = useState(current?.roleArn ?? "");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [tested, setTested] = useState<WafTestResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const utils = trpc.useUtils();

  const input = () => (mode === "keys" ? { region, scope, accessKeyId, secretAccessKey } : { region, scope, roleArn });
  const validate = () => {
    const result = ConnectWafInput.safeParse(input());
    const found: Partial<Record<Field, string>> = {};
    if (!result.success) for (const issue of result.error.issues) found[issue.path[0] as Field] ??= issue.message;
    setErrors(found);
    return result.success ? result.data : null;
  };
  const serverErrors = (error: unknown) => {
    const issues = validationIssuesOf(error);
    if (issues.length) setErrors(Object.fromEntries(issues.map((issue) => [issue.path, issue.message])));
  };

  const test = trpc.waf.test.useMutation({
    onMutate: () => {
      setTested(null);
      setTestError(null);
    },
    onSuccess: setTested,
    onError: (error) => {
      serverErrors(error);
      setTestError(errorMessage(error));
    },
  });
  const connect = useToastMutation((valid: ConnectWafInput) => utils.client.waf.connect.mutate(valid), {
    success: current ? "AWS WAF credentials replaced" : "AWS WAF connected",
    onSuccess: async () => {
      await Promise.all([utils.waf.invalidate(), utils.integration.invalidate()]);
      onOpenChange(false);
    },
  });

  const onTest = () => {
    const valid = validate();
    if (valid) test.mutate(valid);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const valid = validate();
    if (valid) connect.mutate(valid, { onError: serverErrors });
  };
  const changeScope = (next: string) => {
    setScope(next);
    // CloudFront web ACLs are global and managed in us-east-1.
    if (next === "CLOUDFRONT") setRegion(CLOUDFRONT_REGION);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="waf-connect-drawer"
        className="top-0 right-0 left-auto h-full max-h-screen translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none sm:max-w-md"
      >
        <DialogHeader>
          <DialogTitle>{current ? "Reconnect AWS WAF" : "Connect AWS WAF"}</DialogTitle>
          <DialogDescription>Faultline calls AWS from its server only; the secret is sealed at rest and never shown again.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="waf-scope" label="Scope" error={errors.scope}>
            <select
              id="waf-scope"
              className={selectClass}
              value={scope}
              onChange={(event) => changeScope(event.target.value)}
              {...invalidProps("waf-scope", errors.scope)}
            >
              {WAF_SCOPES.map((value) => (
                <option key={value} value={value}>
                  {value === "REGIONAL" ? "REGIONAL (ALB, API Gateway, AppSync, …)" : "CLOUDFRONT (global, us-east-1)"}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="waf-region" label="Region" error={errors.region}>
            <select
              id="waf-region"
              className={selectClass}
              value={region}
              disabled={scope === "CLOUDFRONT"}
              onChange={(event) => setRegion(event.target.value)}
              {...invalidProps("waf-region", errors.region)}
            >
              {WAF_REGIONS.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Credentials</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="waf-mode" checked={mode === "keys"} onChange={() => setMode("keys")} data-testid="waf-mode-keys" /> Access key of an IAM
              user
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="waf-mode"
                checked={mode === "role"}
                disabled={!setup.rolesAvailable}
                onChange={() => setMode("role")}
                data-testid="waf-mode-role"
              />{" "}
              Role that Faultline assumes
              {setup.rolesAvailable ? null : <span className="text-xs text-muted-foreground">(this server has no AWS identity of its own)</span>}
            </label>
          </fieldset>
          {mode === "keys" ? (
            <>
              <FormField
                id="waf-access-key-id"
                label="Access key id"
                error={errors.accessKeyId}
                hint={current?.accessKeyId ? `Now ${current.accessKeyId}` : undefined}
              >
                <Input
                  id="waf-access-key-id"
                  value={accessKeyId}
                  onChange={(event) => setAccessKeyId(event.target.value)}
                  autoComplete="off"
                  placeholder="AKIA…"
                  {...invalidProps("waf-access-key-id", errors.accessKeyId)}
                />
              </FormField>
              <FormField id="waf-secret-access-key" label="Secret access key" error={errors.secretAccessKey}>
                <Input
                  id="waf-secret-access-key"
                  type="password"
                  value={secretAccessKey}
                  onChange={(event) => setSecretAccessKey(event.target.value)}
                  autoComplete="new-password"
                  {...invalidProps("waf-secret-access-key", errors.secretAccessKey)}
                />
              </FormField>
            </>
          ) : (
            <>
              <FormField id="waf-role-arn" label="Role ARN" error={errors.roleArn}>
                <Input
                  id="waf-role-arn"
                  value={roleArn}
                  onChange={(event) => setRoleArn(event.target.value)}
                  placeholder="arn:aws:iam::123456789012:role/FaultlineWaf"
                  {...invalidProps("waf-role-arn", errors.roleArn)}
                />
              </FormField>
              <div className="grid gap-1 text-sm">
                <span className="font-medium">ExternalId for the role's trust policy</span>
                <span className="flex items-center gap-1">
                  <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs" data-testid="waf-external-id">
                    {setup.externalId}
                  </code>
                  <CopyButton value={setup.externalId} label="ExternalId" />
                </span>
              </div>
            </>
          )}
          <details className="text-sm">
            <summary className="cursor-pointer font-medium">IAM actions Faultline needs</summary>
            <ul className="mt-2 list-disc pl-5 font-mono text-xs" data-testid="waf-iam-actions">
              {setup.iamActions.map((action) => (
                <li key={action}>{action}</li>
              ))}
            </ul>
            <span className="mt-2 flex items-center gap-1 text-xs text-muted-foreground">
              Copy as a policy <CopyButton value={policyJson(setup.iamActions)} label="IAM policy" />
            </span>
          </details>
          {tested ? (
            <Alert data-testid="waf-test-result">
              <CheckCircle2Icon />
              <AlertTitle>AWS accepted these credentials</AlertTitle>
              <AlertDescription>
                {tested.webAcls.length === 0 ? "No web ACLs in this region and scope." : `Web ACLs: ${tested.webAcls.map((acl) => acl.name).join(", ")}.`}{" "}
                {tested.ipSetCount} IP set(s).
              </AlertDescription>
            </Alert>
          ) : null}
          {testError ? (
            <Alert variant="destructive" data-testid="waf-test-error">
              <AlertTitle>Test failed</AlertTitle>
              <AlertDescription>{testError}</AlertDescription>
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={onTest} disabled={test.isPending} data-testid="waf-test">
              {test.isPending ? <Loader2Icon className="animate-spin" /> : null} Test connection
            </Button>
            <Button type="submit" disabled={connect.isPending} data-testid="waf-connect-submit">
              {connect.isPending ? <Loader2Icon className="animate-spin" /> : null} {current ? "Replace credentials" : "Connect"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
