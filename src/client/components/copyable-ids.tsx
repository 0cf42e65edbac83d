import { Fragment } from "react";
import { CopyButton } from "./copy-button";

export interface CopyableId {
  label: string;
  value: string;
  testId: string;
}

/** The ids a script needs for the REST API (`/api/v1/organizations/{orgId}/projects/{projectId}`), each with a copy button. */
export function CopyableIds({ ids, testId }: { ids: CopyableId[]; testId?: string }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 gap-y-1 text-sm" data-testid={testId}>
      {ids.map((id) => (
        <Fragment key={id.testId}>
          <dt className="text-muted-foreground">{id.label}</dt>
          <dd className="flex min-w-0 items-center gap-1">
            <code className="font-mono break-all" data-testid={id.testId}>
              {id.value}
            </code>
            <CopyButton value={id.value} label={id.label.toLowerCase()} />
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}
