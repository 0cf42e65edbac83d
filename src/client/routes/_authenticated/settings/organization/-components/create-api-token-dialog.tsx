import { useState } from "react";
import { Loader2Icon, PlusIcon, TriangleAlertIcon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { useZodForm } from "@/client/lib/use-zod-form";
import { CodeBlock } from "@/client/components/code-block";
import { CopyButton } from "@/client/components/copy-button";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_SCOPE_LABELS, API_TOKEN_SCOPES, CreateApiTokenInput, type ApiTokenScope } from "@/shared/api-token.inputs";
import { apiTokenCurlExample } from "./api-token-curl";

const INITIAL = { name: "", scopes: ["event:read"] as ApiTokenScope[], expiresInDays: null as number | null };

/** Creates a token, then shows its secret once with a copy button and a first call to try; closing the dialog forgets it. */
export function CreateApiTokenDialog({ organizationSlug }: { organizationSlug: string }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ secret: string; scopes: ApiTokenScope[] } | null>(null);
  const secret = created?.secret ?? null;
  const form = useZodForm(CreateApiTokenInput, INITIAL);
  const utils = trpc.useUtils();
  const create = useToastMutation(utils.client.apiToken.create.mutate, {
    refresh: async (created) => {
      setCreated({ secret: created.secret, scopes: created.token.scopes });
      await utils.apiToken.list.invalidate();
    },
  });
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setCreated(null);
      form.reset();
    }
  };
  const toggleScope = (scope: ApiTokenScope, checked: boolean) => {
    const scopes = form.values.scopes ?? [];
    form.setValue("scopes", checked ? [...scopes, scope] : scopes.filter((item) => item !== scope));
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" data-testid="create-api-token">
          <PlusIcon /> New token
        </Button>
      </DialogTrigger>
      <DialogContent>
        {secret ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Copy your token now</DialogTitle>
              <DialogDescription>It is shown only this once: Faultline keeps just a hash of it.</DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
              <code data-testid="api-token-secret" className="flex-1 font-mono text-sm break-all">
                {secret}
              </code>
              <CopyButton value={secret} label="token" />
            </div>
            <div className="grid gap-2">
              <p className="text-sm text-muted-foreground">Try it:</p>
              <CodeBlock
                code={apiTokenCurlExample(window.location.origin, organizationSlug, secret, created?.scopes ?? [])}
                label="curl example"
                testId="api-token-curl"
              />
            </div>
            <p className="flex items-start gap-2 text-sm text-muted-foreground">
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden /> Treat it like a password; revoke it here if it leaks.
            </p>
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form className="grid gap-4" onSubmit={form.handleSubmit((data) => create.mutate(data))}>
            <DialogHeader>
              <DialogTitle>New API token</DialogTitle>
              <DialogDescription>Give each program or assistant its own token, with only the scopes it needs.</DialogDescription>
            </DialogHeader>
            <FormField id="api-token-name" label="Name" error={form.errors.name}>
              <Input
                id="api-token-name"
                data-testid="api-token-name"
                placeholder="Claude Desktop"
                value={form.values.name}
                onChange={(event) => form.setValue("name", event.target.value)}
                {...invalidProps("api-token-name", form.errors.name)}
              />
            </FormField>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Scopes</legend>
              {API_TOKEN_SCOPES.map((scope) => (
                <label key={scope} className="flex items-start gap-2 text-sm">
                  <Checkbox
                    data-testid={`api-token-scope-${scope}`}
                    checked={(form.values.scopes ?? []).includes(scope)}
                    onCheckedChange={(checked) => toggleScope(scope, checked === true)}
                    className="mt-0.5"
                  />
                  <span>
                    <code>{scope}</code> <span className="text-muted-foreground">— {API_TOKEN_SCOPE_LABELS[scope]}</span>
                  </span>
                </label>
              ))}
              {form.errors.scopes ? <p className="text-sm text-destructive">{form.errors.scopes}</p> : null}
            </fieldset>
            <FormField id="api-token-expiry" label="Expires">
              <NativeSelect
                id="api-token-expiry"
                value={form.values.expiresInDays === null || form.values.expiresInDays === undefined ? "" : String(form.values.expiresInDays)}
                onChange={(event) => form.setValue("expiresInDays", event.target.value ? Number(event.target.value) : null)}
              >
                <option value="">Never (until revoked)</option>
                {API_TOKEN_EXPIRY_DAYS.map((days) => (
                  <option key={days} value={days}>
                    In {days} days
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <DialogFooter>
              <Button type="submit" disabled={create.isPending} data-testid="api-token-submit">
                {create.isPending ? <Loader2Icon className="animate-spin" /> : null}
                Create token
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
