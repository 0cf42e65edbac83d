import { trpc } from "@/client/lib/trpc";
import { BlockIpPanel } from "./block-ip-panel";

/** "Block this IP" on the issue detail: for the client of the latest exception (nothing when it has no client IP). */
export function LatestExceptionBlockIp({ projectId, latestExceptionId }: { projectId: string; latestExceptionId: string | null }) {
  const exception = trpc.exception.get.useQuery({ projectId, exceptionId: latestExceptionId ?? "" }, { enabled: latestExceptionId !== null });
  if (!exception.data) return null;
  return (
    <div className="mt-3">
      <BlockIpPanel exception={exception.data} projectId={projectId} label="Latest exception's client IP" />
    </div>
  );
}
