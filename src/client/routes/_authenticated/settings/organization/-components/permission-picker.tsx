import { Checkbox } from "@/client/components/ui/checkbox";
import { PERMISSION_STATEMENTS, RESOURCE_LABELS, type PermissionMap, type PermissionResource } from "@/shared/permissions";

const RESOURCES = Object.keys(PERMISSION_STATEMENTS) as PermissionResource[];

/** The spec's resources × actions as checkboxes; `disabled` shows a role's map read-only. */
export function PermissionPicker({
  value,
  onChange,
  disabled = false,
  idPrefix,
}: {
  value: PermissionMap;
  onChange?: (next: PermissionMap) => void;
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
  return (
    <div className="grid gap-2 sm:grid-cols-2" data-testid={`${idPrefix}-permissions`}>
      {RESOURCES.map((resource) => (
        <fieldset key={resource} className="grid gap-1 rounded-md border px-3 py-2">
          <legend className="px-1 text-xs font-medium text-muted-foreground">{RESOURCE_LABELS[resource]}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {PERMISSION_STATEMENTS[resource].map((action) => {
              const id = `${idPrefix}-${resource}-${action}`;
              return (
                <label key={action} htmlFor={id} className="flex items-center gap-1.5 text-sm">
                  <Checkbox
                    id={id}
                    data-testid={id}
                    checked={(value[resource] ?? []).includes(action)}
                    disabled={disabled}
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
  );
}
