import { Checkbox } from "@/client/components/ui/checkbox";
import { PERMISSION_STATEMENTS, RESOURCE_LABELS, type Permission, type PermissionMap, type PermissionResource } from "@/shared/permissions";
import { GRANT_ONLY_HELD } from "@/shared/role-grants";

const RESOURCES = Object.keys(PERMISSION_STATEMENTS) as PermissionResource[];

/**
 * The permission table's resources × actions as checkboxes. Only permissions in `held` can be
 * ticked or unticked (the others are disabled, with the reason); `disabled` shows a map read-only.
 */
export function PermissionPicker({
  value,
  onChange,
  held,
  disabled = false,
  idPrefix,
}: {
  value: PermissionMap;
  onChange?: (next: PermissionMap) => void;
  held: ReadonlySet<Permission>;
  disabled?: boolean;
  idPrefix: string;
}) {
  const toggle = (resource: PermissionResource, action: string, on: boolean) => {
    const current = value[resource] ?? [];
    const actions = on ? [...new Set([...current, action])] : current.filter((existing) => existing !== action);
    const next = { ...value, [resource]: actions };
    if (actions.length === 0) delete next[resource];
    onChange?.(next);
  };
  const holdsAll = RESOURCES.every((resource) => PERMISSION_STATEMENTS[resource].every((action) => held.has(`${resource}:${action}` as Permission)));
  return (
    <div className="grid gap-2">
      <div className="grid gap-2 sm:grid-cols-2" data-testid={`${idPrefix}-permissions`}>
        {RESOURCES.map((resource) => (
          <fieldset key={resource} className="grid gap-1 rounded-md border px-3 py-2">
            <legend className="px-1 text-xs font-medium text-muted-foreground">{RESOURCE_LABELS[resource]}</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {PERMISSION_STATEMENTS[resource].map((action) => {
                const id = `${idPrefix}-${resource}-${action}`;
                const grantable = held.has(`${resource}:${action}` as Permission);
                return (
                  <label
                    key={action}
                    htmlFor={id}
                    className={`flex items-center gap-1.5 text-sm${grantable ? "" : " text-muted-foreground"}`}
                    title={grantable ? undefined : GRANT_ONLY_HELD}
                  >
                    <Checkbox
                      id={id}
                      data-testid={id}
                      checked={(value[resource] ?? []).includes(action)}
                      disabled={disabled || !grantable}
                      onCheckedChange={(checked) => toggle(resource, action, checked === true)}
                    />
                    {action}
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
      {!disabled && !holdsAll ? (
        <p className="text-xs text-muted-foreground" data-testid={`${idPrefix}-grant-only-held`}>
          Greyed out: {GRANT_ONLY_HELD.toLowerCase()}.
        </p>
      ) : null}
    </div>
  );
}
