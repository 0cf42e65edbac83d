import { ENVIRONMENT_LABELS, ENVIRONMENTS, type EnvironmentBucket } from "@/shared/environments";
import { Checkbox } from "./ui/checkbox";
import { Label } from "./ui/label";

/** Environment multi-select; no environment ticked means all of them. */
export function EnvironmentFilter({
  value,
  onChange,
}: {
  value: EnvironmentBucket[] | undefined;
  onChange: (environments: EnvironmentBucket[] | undefined) => void;
}) {
  const selected = new Set(value ?? []);
  const toggle = (environment: EnvironmentBucket, checked: boolean) => {
    const next = ENVIRONMENTS.filter((candidate) => (candidate === environment ? checked : selected.has(candidate)));
    onChange(next.length > 0 ? next : undefined);
  };
  return (
    <fieldset className="flex h-9 flex-wrap items-center gap-x-4 gap-y-1" data-testid="filter-environment">
      <legend className="sr-only">Environments</legend>
      {ENVIRONMENTS.map((environment) => (
        <div key={environment} className="flex items-center gap-1.5">
          <Checkbox
            id={`filter-env-${environment}`}
            checked={selected.has(environment)}
            onCheckedChange={(checked) => toggle(environment, checked === true)}
            data-testid={`filter-env-${environment}`}
          />
          <Label htmlFor={`filter-env-${environment}`} className="font-normal">
            {ENVIRONMENT_LABELS[environment]}
          </Label>
        </div>
      ))}
    </fieldset>
  );
}
