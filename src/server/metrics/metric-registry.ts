/**
 * A small Prometheus registry (text exposition format 0.0.4) with no dependency. The hot path only
 * adds numbers to fields that already exist: a counter or a labelled child is created once and
 * kept, a histogram has fixed buckets. Everything textual happens when /metrics is read.
 */

export type Labels = Readonly<Record<string, string>>;

/** One sample line's worth, for gauges read at scrape time. */
export interface Sample {
  labels?: Labels;
  value: number;
}

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge" | "histogram";
  lines(): string[] | Promise<string[]>;
}

/** A label value in double quotes: backslash, double quote and line feed escaped (the format's rules). */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text: backslash and line feed escaped. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

export function formatLabels(labels: Labels | undefined): string {
  if (!labels) return "";
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

export class Counter {
  value = 0;
  inc(by = 1) {
    this.value += by;
  }
}

/**
 * A counter per combination of label values. Children are created on first use and kept (callers on
 * a hot path keep the child); past `maxChildren` combinations the rest share one whose values are
 * all `other`, so labels fed by input cannot grow without bound.
 */
export class LabeledCounter implements Metric {
  readonly type = "counter";
  private readonly children = new Map<string, { labels: Labels; counter: Counter }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly maxChildren = 100,
  ) {}

  child(...values: string[]): Counter {
    const key = values.join("\u0000");
    const known = this.children.get(key);
    if (known) return known.counter;
    const overflow = this.labelNames.map(() => "other");
    // The overflow child itself may pass the bound by one.
    if (this.children.size >= this.maxChildren && key !== overflow.join("\u0000")) return this.child(...overflow);
    const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? ""]));
    const counter = new Counter();
    this.children.set(key, { labels, counter });
    return counter;
  }

  lines(): string[] {
    return [...this.children.values()].map(({ labels, counter }) => `${this.name}${formatLabels(labels)} ${formatValue(counter.value)}`);
  }
}

/** An unlabelled counter. */
export class SimpleCounter extends Counter implements Metric {
  readonly type = "counter";
  constructor(
    readonly name: string,
    readonly help: string,
  ) {
    super();
  }
  lines(): string[] {
    return [`${this.name} ${formatValue(this.value)}`];
  }
}

/** A histogram with fixed upper bounds; each observation adds to one bucket (made cumulative when read). */
export class Histogram implements Metric {
  readonly type = "histogram";
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number) {
    this.sum += value;
    this.count += 1;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        this.counts[i] += 1;
        return;
      }
    }
  }

  lines(): string[] {
    const lines: string[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.counts[i];
      lines.push(`${this.name}_bucket${formatLabels({ le: formatValue(bound) })} ${cumulative}`);
    });
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${formatValue(this.sum)}`, `${this.name}_count ${this.count}`);
    return lines;
  }
}

/** A gauge (or counter kept elsewhere) read when /metrics is: memory, queue depths, pool use. */
export class CollectedMetric implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge",
    private readonly collect: () => Sample[] | Promise<Sample[]>,
  ) {}

  async lines(): Promise<string[]> {
    return (await this.collect()).map((sample) => `${this.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
  }
}

export class MetricRegistry {
  private readonly metrics: Metric[] = [];

  register<T extends Metric>(metric: T): T {
    if (this.metrics.some((known) => known.name === metric.name)) throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.push(metric);
    return metric;
  }

  /** The whole exposition, `# HELP` and `# TYPE` before each metric's samples. */
  async render(): Promise<string> {
    const blocks = await Promise.all(
      this.metrics.map(async (metric) => [
        `# HELP ${metric.name} ${escapeHelp(metric.help)}`,
        `# TYPE ${metric.name} ${metric.type}`,
        ...(await metric.lines()),
      ]),
    );
    return `${blocks.flat().join("\n")}\n`;
  }
}

/** The content type Prometheus expects for this format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
