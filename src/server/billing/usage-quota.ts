import type { Plan } from "../../shared/billing.inputs";
import type { RateCounterStore } from "../ingest/http/rate-counter.store";
import type { Logger } from "../logger";
import { quotaMonth } from "./billing-plans";

export interface QuotaVerdict {
  limited: boolean;
  /** Seconds until the month rolls over (when limited). */
  retryAfterSeconds: number;
}

export interface UsageQuotaDeps {
  /** The shared counters (ingest_rate_counters): one per organization and month, surviving restarts and shared by replicas. */
  counters: RateCounterStore;
  planOf(organizationId: string): Promise<Plan>;
  /** Events per month on a plan; 0 = unlimited. */
  quotaOf(plan: Plan): number;
  /** Told when an organization's usage crosses 80 or 100 percent (deduplicated by the receiver across replicas). */
  notice(organizationId: string, month: string, percent: 80 | 100): void;
  logger: Logger;
  now?: () => number;
}

/** Events leased from the shared counter at once: one database round trip per block, not per event. */
export const QUOTA_LEASE = 100;
/** How long a plan is trusted before it is read again (a webhook in this process refreshes it at once). */
const PLAN_TTL_MS = 60_000;
/** An exhausted organization asks the shared counter again this often (another replica may have given leftovers back). */
const EXHAUSTED_RECHECK_MS = 60_000;
const SECONDS_IN_MONTH = 32 * 24 * 60 * 60;

interface OrgState {
  windowStart: number;
  month: string;
  nextMonth: number;
  plan: Plan;
  planExpires: number;
  /** Events this process may still accept without asking the shared counter. */
  tokens: number;
  /** The shared counter's ordinal of the next local token (for the 80 % and 100 % notices). */
  ordinal: number;
  exhaustedUntil: number;
  busy: Promise<void> | null;
}

const ALLOWED: QuotaVerdict = { limited: false, retryAfterSeconds: 0 };

/**
 * The plan's monthly event quota per organization (hosted deployment only). Each process leases
 * blocks of QUOTA_LEASE events from a shared counter and hands them out from memory, so the hot
 * path pays one round trip per block; a lease is clipped at the quota (and the surplus given back
 * at once), so across every replica no more than the quota is accepted. Leftovers are given back
 * on close. A store failure lets events through (logged): losing a quota check beats losing events.
 */
export class UsageQuota {
  private orgs = new Map<string, OrgState>();
  private readonly now: () => number;

  constructor(private readonly deps: UsageQuotaDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Takes `events` from the organization's quota, or answers that the month's quota is spent. */
  async admit(organizationId: string, events: number): Promise<QuotaVerdict> {
    for (;;) {
      const state = this.stateOf(organizationId);
      if (state.busy) {
        await state.busy;
        continue;
      }
      const now = this.now();
      if (state.planExpires <= now) {
        await this.run(state, () => this.refreshPlan(organizationId, state));
        continue;
      }
      const quota = this.deps.quotaOf(state.plan);
      if (quota === 0) return ALLOWED;
      if (state.tokens >= events) {
        this.take(organizationId, state, events, quota);
        return ALLOWED;
      }
      if (state.exhaustedUntil > now) return this.refusal(organizationId, state, quota);
      const before = state.tokens;
      await this.run(state, () => this.lease(organizationId, state, Math.max(events - state.tokens, QUOTA_LEASE), quota));
      if (state.tokens === before) return this.refusal(organizationId, state, quota);
    }
  }

  /** Gives events back that were admitted but could not be stored (the database was unavailable). */
  release(organizationId: string, events: number) {
    const state = this.orgs.get(organizationId);
    if (state) state.tokens += events;
  }

  /** The organization's subscription changed (a webhook): read its plan on the next event. */
  planChanged(organizationId: string) {
    const state = this.orgs.get(organizationId);
    if (state) {
      state.planExpires = 0;
      state.exhaustedUntil = 0;
    }
  }

  /** Gives unused leases back to the shared counter (SIGTERM), so a restart does not count them as used. */
  async close() {
    const returns = [...this.orgs.entries()].filter(([, state]) => state.tokens > 0);
    this.orgs.clear();
    await Promise.all(
      returns.map(([organizationId, state]) =>
        this.deps.counters.add(counterKey(organizationId), state.windowStart, -state.tokens, SECONDS_IN_MONTH).catch((error: unknown) => {
          this.deps.logger.warn("quota leases not returned", { organizationId, err: error });
        }),
      ),
    );
  }

  private stateOf(organizationId: string): OrgState {
    const { month, start, next } = quotaMonth(new Date(this.now()));
    const existing = this.orgs.get(organizationId);
    // A new month starts from zero; leftovers of the last one expire with it.
    if (existing && existing.windowStart === start.getTime()) return existing;
    const state: OrgState = {
      windowStart: start.getTime(),
      month,
      nextMonth: next.getTime(),
      plan: existing?.plan ?? "free",
      planExpires: existing?.planExpires ?? 0,
      tokens: 0,
      ordinal: 1,
      exhaustedUntil: 0,
      busy: null,
    };
    this.orgs.set(organizationId, state);
    return state;
  }

  /** One refresh or lease per organization at a time; concurrent requests wait for it and look again. */
  private async run(state: OrgState, work: () => Promise<void>) {
    const busy = work().finally(() => {
      state.busy = null;
    });
    state.busy = busy;
    await busy;
  }

  private async refreshPlan(organizationId: string, state: OrgState) {
    try {
      state.plan = await this.deps.planOf(organizationId);
    } catch (error) {
      this.deps.logger.warn("plan lookup failed; keeping the last known plan", { organizationId, err: error });
    }
    state.planExpires = this.now() + PLAN_TTL_MS;
  }

  private async lease(organizationId: string, state: OrgState, want: number, quota: number) {
    const key = counterKey(organizationId);
    try {
      const total = await this.deps.counters.add(key, state.windowStart, want, SECONDS_IN_MONTH);
      const before = total - want;
      const granted = Math.max(0, Math.min(want, quota - before));
      // The part past the quota goes straight back, so the shared count never claims more than the quota.
      if (granted < want) await this.deps.counters.add(key, state.windowStart, granted - want, SECONDS_IN_MONTH);
      if (granted === 0) {
        state.exhaustedUntil = Math.min(state.nextMonth, this.now() + EXHAUSTED_RECHECK_MS);
        return;
      }
      // Leftover tokens from an older lease are used first; the ordinals follow the newest lease.
      state.ordinal = before + 1 - state.tokens;
      state.tokens += granted;
    } catch (error) {
      this.deps.logger.warn("quota counter unavailable; allowing", { organizationId, err: error });
      state.tokens += want;
      state.ordinal = Number.POSITIVE_INFINITY;
    }
  }

  private take(organizationId: string, state: OrgState, events: number, quota: number) {
    const first = state.ordinal;
    const last = first + events - 1;
    state.tokens -= events;
    state.ordinal = last + 1;
    const eighty = Math.ceil(quota * 0.8);
    if (first <= eighty && eighty <= last) this.deps.notice(organizationId, state.month, 80);
    if (first <= quota && quota <= last) this.deps.notice(organizationId, state.month, 100);
  }

  private refusal(organizationId: string, state: OrgState, _quota: number): QuotaVerdict {
    // Also covers a quota reached on another replica, or before a restart.
    this.deps.notice(organizationId, state.month, 100);
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((state.nextMonth - this.now()) / 1000)) };
  }
}

const counterKey = (organizationId: string) => `quota:${organizationId}`;
