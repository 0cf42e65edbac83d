import type { ReactNode } from "react";
import { useDocumentTitle } from "@/client/lib/use-document-title";

interface Props {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** A screen's heading; also sets the tab title. */
export function PageHeader({ title, description, actions }: Props) {
  useDocumentTitle(title);
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <div className="text-sm text-muted-foreground">{description}</div> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}
