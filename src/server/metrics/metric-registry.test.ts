import { describe, expect, it } from "vitest";
import { CollectedMetric, escapeLabelValue, Histogram, LabeledCounter, MetricRegistry, SimpleCounter } from "./metric-registry";

describe("the Prometheus text format (0.0.4)", () => {
  it("escapes backslash, double quote and line feed in label values, and only those", () => {
    expect(escapeLabelValue('a\\b"c\nd\te')).toBe('a\\\\b\\"c\\nd\te');
  });

  it("writes HELP and TYPE before each metric's samples, labels quoted and escaped", async () => {
    const registry = new MetricRegistry();
    registry.register(new SimpleCounter("demo_total", "A line\nand a \\ backslash.")).inc(3);
    const labeled = registry.register(new LabeledCounter("demo_refused_total", "Refused.", ["outcome", "reason"]));
    labeled.child("invalid", 'say "hi"\n').inc(2);
    registry.register(new CollectedMetric("demo_gauge", "A gauge.", "gauge", () => [{ value: 1.5 }, { labels: { kind: "x" }, value: NaN }]));
    expect(await registry.render()).toBe(
      [
        "# HELP demo_total A line\\nand a \\\\ backslash.",
        "# TYPE demo_total counter",
        "demo_total 3",
        "# HELP demo_refused_total Refused.",
        "# TYPE demo_refused_total counter",
        'demo_refused_total{outcome="invalid",reason="say \\"hi\\"\\n"} 2',
        "# HELP demo_gauge A gauge.",
        "# TYPE demo_gauge gauge",
        "demo_gauge 1.5",
        'demo_gauge{kind="x"} NaN',
        "",
      ].join("\n"),
    );
  });

  it("makes histogram buckets cumulative, with +Inf equal to the count, and the sum", async () => {
    const registry = new MetricRegistry();
    const histogram = registry.register(new Histogram("demo_seconds", "Latency.", [0.1, 1, 10]));
    for (const value of [0.05, 0.1, 0.5, 2, 20]) histogram.observe(value);
    const lines = (await registry.render()).split("\n");
    expect(lines).toEqual([
      "# HELP demo_seconds Latency.",
      "# TYPE demo_seconds histogram",
      'demo_seconds_bucket{le="0.1"} 2',
      'demo_seconds_bucket{le="1"} 3',
      'demo_seconds_bucket{le="10"} 4',
      'demo_seconds_bucket{le="+Inf"} 5',
      "demo_seconds_sum 22.65",
      "demo_seconds_count 5",
      "",
    ]);
  });

  it("keeps a labelled counter's children bounded: past the bound, values share `other`", async () => {
    const registry = new MetricRegistry();
    const counter = registry.register(new LabeledCounter("demo_total", "Bounded.", ["reason"], 2));
    for (const reason of ["a", "b", "c", "d"]) counter.child(reason).inc();
    expect(counter.child("a")).toBe(counter.child("a"));
    expect((await registry.render()).split("\n").filter((line) => line.startsWith("demo_total"))).toEqual([
      'demo_total{reason="a"} 1',
      'demo_total{reason="b"} 1',
      'demo_total{reason="other"} 2',
    ]);
  });

  it("refuses one name registered twice", () => {
    const registry = new MetricRegistry();
    registry.register(new SimpleCounter("demo_total", "One."));
    expect(() => registry.register(new SimpleCounter("demo_total", "Two."))).toThrow("registered twice");
  });
});
