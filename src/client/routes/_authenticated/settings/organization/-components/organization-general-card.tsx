import { useState } from "react";
import { Loader2Icon } from "lucide-react";
import { OrganizationName } from "@/shared/organization.inputs";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CopyableIds } from "@/client/components/copyable-ids";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import type { OrganizationCardProps } from "./types";

export function OrganizationGeneralCard({ organization }: OrganizationCardProps) {
  const { can, refusal } = usePermissions();
  const canUpdate = can("organization:update");
  const [name, setName] = useState(organization.name);
  const trimmed = name.trim();
  const checked = OrganizationName.safeParse(name);
  const problem = checked.success ? null : checked.error.issues[0].message;
  const rename = useToastMutation((newName: string) => unwrap(authClient.organization.update({ organizationId: organization.id, data: { name: newName } })), {
    success: "Organization renamed",
    invalidate: [organizationKeys.full(organization.id), organizationKeys.all],
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>General</CardTitle>
        <CardDescription>
          URL name <code className="font-mono">{organization.slug}</code> · created {new Date(organization.createdAt).toLocaleDateString()}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <CopyableIds
            testId="organization-ids"
            ids={[
              { label: "Organization id", value: organization.id, testId: "organization-id" },
              { label: "Slug", value: organization.slug, testId: "organization-slug" },
            ]}
          />
          <p className="text-sm text-muted-foreground">
            The REST API (<code>/api/v1/organizations/…</code>) takes either; <code>GET /api/v1/organizations</code> lists yours.
          </p>
        </div>
        <form
          className="grid gap-3 sm:max-w-md"
          onSubmit={(event) => {
            event.preventDefault();
            if (!problem) rename.mutate(trimmed);
          }}
        >
          <Label htmlFor="organization-name">Name</Label>
          <Input id="organization-name" data-testid="organization-name" value={name} disabled={!canUpdate} onChange={(event) => setName(event.target.value)} />
          {problem && name !== organization.name ? <p className="text-sm text-destructive">{problem}</p> : null}
          {canUpdate ? (
            <Button
              type="submit"
              className="justify-self-start"
              disabled={rename.isPending || problem !== null || trimmed === organization.name}
              data-testid="organization-rename"
            >
              {rename.isPending ? <Loader2Icon className="animate-spin" /> : null}
              Rename
            </Button>
          ) : refusal("organization:update") ? (
            <p className="text-sm text-muted-foreground">{refusal("organization:update")}.</p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
