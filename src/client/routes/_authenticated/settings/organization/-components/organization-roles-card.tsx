import { useState } from "react";
import { Loader2Icon, PencilIcon, PlusIcon, ShieldIcon, Trash2Icon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { myPermissionsKey, usePermissions } from "@/client/lib/use-permissions";
import { organizationRoleKeys, useOrganizationRoles, type CustomRole } from "@/client/lib/organization-roles";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CustomRoleName } from "@/shared/custom-roles";
import { RESOURCE_LABELS, type Permission, type PermissionMap, type PermissionResource } from "@/shared/permissions";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { Skeleton } from "@/client/components/ui/skeleton";
import { PermissionPicker } from "./permission-picker";
import type { OrganizationCardProps } from "./types";

/** "Members: create, update · Teams: create" */
function describePermission(permission: PermissionMap) {
  const parts = Object.entries(permission)
    .filter(([, actions]) => actions && actions.length > 0)
    .map(([resource, actions]) => `${RESOURCE_LABELS[resource as PermissionResource] ?? resource}: ${actions!.join(", ")}`);
  return parts.length > 0 ? parts.join(" · ") : "No permissions";
}

/**
 * Organization roles (spec §3, §6): custom roles next to owner, admin and member, each a map of the
 * permission table's resources to actions. The `ac` permissions decide who sees (read), creates,
 * edits and deletes them; a role can grant only permissions its editor holds. Assign them in the
 * members list.
 */
export function OrganizationRolesCard({ organization }: OrganizationCardProps) {
  const { can, refusal, granted } = usePermissions();
  const roles = useOrganizationRoles();
  const customRoles = roles.data ?? [];
  const canRead = can("ac:read");
  const canCreate = can("ac:create");
  const canUpdate = can("ac:update");
  const canDelete = can("ac:delete");
  // A member holding a role just changed has other permissions now (their own included).
  const invalidate = [organizationRoleKeys.list(organization.id), organizationKeys.full(organization.id), myPermissionsKey];

  const [name, setName] = useState("");
  const [permission, setPermission] = useState<PermissionMap>({});
  const checked = CustomRoleName.safeParse(name);
  const problem = name && !checked.success ? checked.error.issues[0].message : null;
  const create = useToastMutation(
    (input: { role: string; permission: PermissionMap }) =>
      unwrap(
        authClient.organization.createRole({ organizationId: organization.id, role: input.role, permission: input.permission as Record<string, string[]> }),
      ),
    {
      success: (_data, input) => `Role ${input.role} created`,
      invalidate,
      onSuccess: () => {
        setName("");
        setPermission({});
      },
    },
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Roles</CardTitle>
        <CardDescription>
          Besides owner, admin and member, give people exactly the permissions they need. Assign a role in the members list; it takes effect at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!canRead ? (
          refusal("ac:read") ? (
            <p className="text-sm text-muted-foreground" data-testid="roles-not-readable">
              {refusal("ac:read")}.
            </p>
          ) : null
        ) : roles.isPending ? (
          <Skeleton className="h-16" />
        ) : roles.error ? (
          <QueryErrorAlert error={roles.error} onRetry={() => void roles.refetch()} />
        ) : customRoles.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="no-custom-roles">
            <ShieldIcon className="size-4" aria-hidden /> No custom roles yet.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="custom-role-list">
            {customRoles.map((custom) => (
              <CustomRoleRow key={custom.id} custom={custom} organizationId={organization.id} canUpdate={canUpdate} canDelete={canDelete} held={granted} />
            ))}
          </ul>
        )}
        {canCreate ? (
          <form
            className="grid gap-3 rounded-lg border p-4"
            data-testid="create-role-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (checked.success) create.mutate({ role: checked.data, permission });
            }}
          >
            <div className="grid gap-1 sm:max-w-sm">
              <label htmlFor="new-role-name" className="text-sm font-medium">
                New role
              </label>
              <Input
                id="new-role-name"
                placeholder="e.g. recruiter"
                data-testid="new-role-name"
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
              {problem ? <p className="text-sm text-destructive">{problem}</p> : null}
            </div>
            <PermissionPicker idPrefix="new-role" value={permission} onChange={setPermission} held={granted} />
            <div>
              <Button type="submit" variant="outline" disabled={!checked.success || create.isPending} data-testid="create-role">
                {create.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
                Create role
              </Button>
            </div>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}

function CustomRoleRow({
  custom,
  organizationId,
  canUpdate,
  canDelete,
  held,
}: {
  custom: CustomRole;
  organizationId: string;
  canUpdate: boolean;
  canDelete: boolean;
  held: ReadonlySet<Permission>;
}) {
  const [editing, setEditing] = useState(false);
  const [permission, setPermission] = useState<PermissionMap>(custom.permission);
  const invalidate = [organizationRoleKeys.list(organizationId), organizationKeys.full(organizationId), myPermissionsKey];
  const update = useToastMutation(
    (next: PermissionMap) =>
      unwrap(authClient.organization.updateRole({ organizationId, roleId: custom.id, data: { permission: next as Record<string, string[]> } })),
    { success: `Role ${custom.role} updated`, invalidate, onSuccess: () => setEditing(false) },
  );
  const remove = useToastMutation(() => unwrap(authClient.organization.deleteRole({ organizationId, roleId: custom.id })), {
    success: `Role ${custom.role} deleted`,
    invalidate,
  });
  return (
    <li className="grid gap-3 px-4 py-3" data-testid="custom-role-row">
      <div className="flex flex-wrap items-center gap-2">
        <div className="grid flex-1 text-sm">
          <span className="font-medium">{custom.role}</span>
          <span className="text-xs text-muted-foreground">{describePermission(custom.permission)}</span>
        </div>
        {canUpdate && !editing ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setPermission(custom.permission);
              setEditing(true);
            }}
            data-testid="edit-role"
          >
            <PencilIcon /> Edit
          </Button>
        ) : null}
        {canDelete ? (
          <ConfirmDialog
            title={`Delete the role ${custom.role}?`}
            description="Members who hold it keep their other roles; assign them a new role afterwards."
            confirmLabel="Delete role"
            destructive
            onConfirm={() => remove.mutateAsync(undefined)}
            trigger={
              <Button variant="ghost" size="sm" className="text-destructive" data-testid="delete-role">
                <Trash2Icon /> Delete
              </Button>
            }
          />
        ) : null}
      </div>
      {editing ? (
        <div className="grid gap-3">
          <PermissionPicker idPrefix={`role-${custom.role}`} value={permission} onChange={setPermission} held={held} />
          <div className="flex gap-2">
            <Button size="sm" disabled={update.isPending} onClick={() => update.mutate(permission)} data-testid="save-role">
              {update.isPending ? <Loader2Icon className="animate-spin" /> : null}
              Save
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
