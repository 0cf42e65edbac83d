import { canonicalCidr } from "../../../shared/ip-address";
import type { z } from "zod";
import type { BlockIpInput, BlockStatusInput, ListWafAuditInput } from "../../../shared/waf.inputs";
import type { WafAuditEntry, WafBlockResult, WafBlockStatus } from "../../../shared/waf.views";
import { AppError } from "../../errors";
import type { WafIpSet } from "./waf-client";
import { recordBlock, resolveBlockOrigin, selectAudit, selectWafConnection } from "./waf-connection.queries";
import type { ServiceContext } from "../../context";
import { withConnection, type ConnectedWaf } from "./waf-context";
import { requirePermission } from "../../organizations/permissions";

/** Lock conflicts with writers outside this process (other replicas, the AWS console) are retried this often. */
const MAX_LOCK_RETRIES = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const holds = (ipSet: WafIpSet, cidr: string) => ipSet.addresses.some((address) => canonicalCidr(address) === cidr);

/**
 * Read the IP set with its lock token, change the list, UpdateIPSet with that token. On a lock
 * conflict someone else wrote in between: re-read and apply the change again to what they wrote
 * (never overwrite), a bounded number of times with jittered backoff. Writes to one IP set are
 * queued in this process (ip-set-locks.ts), so conflicts only come from outside it.
 */
async function changeIpSet(connected: ConnectedWaf, target: { id: string; name: string }, cidr: string, add: boolean) {
  const { client, locks } = connected.waf;
  return locks.run(`${connected.row.organizationId}:${target.id}`, async () => {
    for (let attempt = 0; ; attempt += 1) {
      const ipSet = await client.getIpSet(connected.connection, target);
      if (holds(ipSet, cidr) === add) return { ipSet, changed: false };
      const family = cidr.includes(":") ? "IPV6" : "IPV4";
      if (add && ipSet.version !== family) {
        throw new AppError(
          "BAD_REQUEST",
          `The IP set ${ipSet.name} holds ${ipSet.version === "IPV4" ? "IPv4" : "IPv6"} addresses; ${cidr} is ${family === "IPV4" ? "IPv4" : "IPv6"}`,
          {
            reason: "ip_family_mismatch",
          },
        );
      }
      const addresses = add ? [...ipSet.addresses, cidr] : ipSet.addresses.filter((address) => canonicalCidr(address) !== cidr);
      try {
        await client.updateIpSet(connected.connection, ipSet, addresses);
        return { ipSet, changed: true };
      } catch (error) {
        const conflict = error instanceof AppError && error.code === "CONFLICT";
        if (!conflict || attempt >= MAX_LOCK_RETRIES) throw error;
        await sleep(Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random()));
      }
    }
  });
}

function targetOf(connected: ConnectedWaf, ipSetId: string | undefined) {
  const { row } = connected;
  if (ipSetId && ipSetId !== row.blockListIpSetId) return { id: ipSetId, name: null };
  if (!row.blockListIpSetId || !row.blockListIpSetName) {
    throw new AppError("BAD_REQUEST", "Choose a block list first: the IP set that Block this IP adds addresses to", { reason: "no_block_list" });
  }
  return { id: row.blockListIpSetId, name: row.blockListIpSetName };
}

async function blockOrUnblock(ctx: ServiceContext, input: z.output<typeof BlockIpInput>, action: "block" | "unblock"): Promise<WafBlockResult> {
  await requirePermission(ctx, "integration:block");
  const origin = await resolveBlockOrigin(ctx.db, ctx.org.organizationId, input);
  if (!origin) throw new AppError("NOT_FOUND", "Project, issue or exception not found");
  const result = await withConnection(ctx, async (connected) => {
    const wanted = targetOf(connected, input.ipSetId);
    // An IP set other than the block list is named by id; its name (which UpdateIPSet needs) comes from AWS.
    const name = wanted.name ?? (await connected.waf.client.listIpSets(connected.connection)).find((ipSet) => ipSet.id === wanted.id)?.name;
    if (!name) throw new AppError("NOT_FOUND", "No IP set with this id in the connected region and scope (deleted in AWS?)");
    return changeIpSet(connected, { id: wanted.id, name }, input.ip, action === "block");
  });
  const outcome = result.changed ? "changed" : "unchanged";
  await recordBlock(ctx.db, {
    organizationId: ctx.org.organizationId,
    actorUserId: ctx.org.userId,
    action,
    ip: input.ip.replace(/\/(32|128)$/, ""),
    cidr: input.ip,
    ipSetId: result.ipSet.id,
    ipSetName: result.ipSet.name,
    outcome,
    ...origin,
  });
  return { cidr: input.ip, ipSet: { id: result.ipSet.id, name: result.ipSet.name }, blocked: action === "block", outcome };
}

/** `POST …/waf/blocks`: adds the address to the block list; an address already there is a no-op (still audited). */
export const blockIp = (ctx: ServiceContext, input: z.output<typeof BlockIpInput>) => blockOrUnblock(ctx, input, "block");
/** `DELETE …/waf/blocks/{ip}`: removes it; an absent address is a no-op. */
export const unblockIp = (ctx: ServiceContext, input: z.output<typeof BlockIpInput>) => blockOrUnblock(ctx, input, "unblock");

/** Whether the block list holds the address (exception detail); not connected or no block list reads as not blocked. */
export async function blockStatus(ctx: ServiceContext, { ip }: z.output<typeof BlockStatusInput>): Promise<WafBlockStatus> {
  const row = await selectWafConnection(ctx.db, ctx.org.organizationId);
  if (!ctx.waf || !row?.connectedAt || !row.blockListIpSetId || !row.blockListIpSetName) return { cidr: ip, blockList: null, blocked: false };
  const blockList = { id: row.blockListIpSetId, name: row.blockListIpSetName };
  const ipSet = await withConnection(ctx, (connected) => connected.waf.client.getIpSet(connected.connection, blockList));
  return { cidr: ip, blockList, blocked: holds(ipSet, ip) };
}

/** `GET …/waf/audit`: every block and unblock, newest first. */
export async function listWafAudit(ctx: ServiceContext, input: z.output<typeof ListWafAuditInput>): Promise<WafAuditEntry[]> {
  const rows = await selectAudit(ctx.db, ctx.org.organizationId, { limit: input.limit, cidr: input.ip });
  return rows.map(({ row, actorId, actorName, actorEmail }) => ({
    id: row.id,
    action: row.action === "unblock" ? "unblock" : "block",
    ip: row.ip,
    cidr: row.cidr,
    ipSetId: row.ipSetId,
    ipSetName: row.ipSetName,
    outcome: row.outcome === "changed" ? "changed" : "unchanged",
    projectId: row.projectId,
    issueId: row.issueId,
    exceptionId: row.exceptionId,
    createdAt: row.createdAt,
    actor: actorId ? { id: actorId, name: actorName ?? "", email: actorEmail ?? "" } : null,
  }));
}
