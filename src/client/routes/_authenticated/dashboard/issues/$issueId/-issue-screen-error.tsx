import { SearchParamError, type ErrorComponentProps } from "@tanstack/react-router";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";

/** A URL without a valid projectId names no issue or exception: not found, not a crash. */
export function IssueScreenError(props: ErrorComponentProps) {
  if (props.error instanceof SearchParamError) return <NotFoundView />;
  return <ErrorView {...props} description="The issue could not be loaded." />;
}
