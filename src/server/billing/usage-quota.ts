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

/** How long a plan is trusted before it is read again (a webhook in this process refreshes it at once). */
const PLAN_TTL_MS = 60_000;
/** An exhausted organization asks the shared counter again this often (events that could not be stored go back to it). */
const EXHAUSTED_RECHECK_MS = 10_000;
const SECONDS_IN_MONTH = 32 * 24 * 60 * 60;

interface OrgState {
  windowStart: number;
  month: string;
  nextMonth: number;
  plan: Plan;
  planExpires: number;
  exhaustedUntil: number;
  refreshing: Promise<void> | null;
}

const ALLOWED: QuotaVerdict = { limited: false, retryAfterSeconds: 0 };

/**
 * The plan's monthly event quota per organization (hosted deployment only). Every request's events
 * are reserved in the shared counter in one conditional, atomic step (RateCounterStore.reserve):
 * the database (or Redis) decides, so N replicas and any number of concurrent requests never
 * accept past the quota. Issue 37: events leased in blocks and handed out from each process's
 * memory — given back on close, kept on a failed store, granted when the counter failed — let the
 * stored count pass the quota (9 of 6). The only memory kept is the plan (a minute) and, once the
 * quota is spent, a short pause before asking again. A counter failure refuses the request with a
 * retryable error (ingest answers 503), never admits it unchecked.
 */
export class UsageQuota {
  private orgs = new Map<string, OrgState>();
  private readonly now: () => number;

  constructor(private readonly deps: UsageQuotaDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Takes `events` from the organization's quota, or answers that the month's quota is spent. */
  async admit(organizationId: string, events: number): Promise<QuotaVerdict> {
    const state = this.stateOf(organizationId);
    if (state.planExpires <= this.now()) {
      state.refreshing ??= this.refreshPlan(organizationId, state).finally(() => (state.refreshing = null));
      await state.refreshing;
    }
    const quota = this.deps.quotaOf(state.plan);
    if (quota === 0) return ALLOWED;
    if (state.exhaustedUntil > this.now()) return this.refusal(organizationId, state);
    const count = await this.deps.counters.reserve(counterKey(organizationId), state.windowStart, events, quota, SECONDS_IN_MONTH);
    if (count === null) {
      state.exhaustedUntil = Math.min(state.nextMonth, this.now() + EXHAUSTED_RECHECK_MS);
      return this.refusal(organizationId, state);
    }
    this.noticeCrossings(organizationId, state, count - events + 1, count, quota);
    return ALLOWED;
  }

  /**
   * Gives events back that were admitted but could not be stored (the database refused or was
   * unavailable). Resolves once the counter holds them again — never rejects — so the request's
   * answer comes after: a client that retries at once must find its units there (answering first
   * let the next envelope be refused against a count that still held the unstored event).
   */
  async release(organizationId: string, events: number): Promise<void> {
    const state = this.orgs.get(organizationId);
    if (!state) return;
    state.exhaustedUntil = 0;
    try {
      await this.deps.counters.add(counterKey(organizationId), state.windowStart, -events, SECONDS_IN_MONTH);
    } catch (error) {
      this.deps.logger.warn("quota units not returned", { organizationId, events, err: error });
    }
  }

  /** The organization's subscription changed (a webhook): read its plan on the next event. */
  planChanged(organizationId: string) {
    const state = this.orgs.get(organizationId);
    if (state) {
      state.planExpires = 0;
      state.exhaustedUntil = 0;
    }
  }

  /** Nothing is held in memory between requests any more; kept for the ingest module's close order. */
  async close() {
    this.orgs.clear();
  }

  private stateOf(organizationId: string): OrgState {
    const { month, start, next } = quotaMonth(new Date(this.now()));
    const existing = this.orgs.get(organizationId);
    // A new month starts from zero (a new counter row).
    if (existing && existing.windowStart === start.getTime()) return existing;
    const state: OrgState = {
      windowStart: start.getTime(),
      month,
      nextMonth: next.getTime(),
      plan: existing?.plan ?? "free",
      planExpires: existing?.planExpires ?? 0,
      exhaustedUntil: 0,
      refreshing: null,
    };
    this.orgs.set(organizationId, state);
    return state;
  }

  private async refreshPlan(organizationId: string, state: OrgState) {
    try {
      state.plan = await this.deps.planOf(organizationId);
    } catch (error) {
      this.deps.logger.warn("plan lookup failed; keeping the last known plan", { organizationId, err: error });
    }
    state.planExpires = this.now() + PLAN_TTL_MS;
  }

  /** The request's events are ordinals first..last of the month: notice 80 % and 100 % as they are crossed. */
  private noticeCrossings(organizationId: string, state: OrgState, first: number, last: number, quota: number) {
    const eighty = Math.ceil(quota * 0.8);
    if (first <= eighty && eighty <= last) this.deps.notice(organizationId, state.month, 80);
    if (first <= quota && quota <= last) this.deps.notice(organizationId, state.month, 100);
  }

  private refusal(organizationId: string, state: OrgState): QuotaVerdict {
    // Also covers a quota reached on another replica, or before a restart.
    this.deps.notice(organizationId, state.month, 100);
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((state.nextMonth - this.now()) / 1000)) };
  }
}

const counterKey = (organizationId: string) => `quota:${organizationId}`;
