import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every Sextant metric carries one prefix, so dashboards and alerts find them together. */
export const METRIC_PREFIX = 'sextant_';
const prefixed = (name: string) => (name.startsWith(METRIC_PREFIX) ? name : `${METRIC_PREFIX}${name}`);

/** One Prometheus registry per app instance (tests start several apps in one process). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'sextant_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'sextant_' });
  }

  /** Lets feature modules add their own metrics to the same registry. */
  histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets?: number[]): Histogram<L> {
    const existing = this.registry.getSingleMetric(prefixed(name));
    if (existing) return existing as Histogram<L>;
    return new Histogram({ name: prefixed(name), help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    const existing = this.registry.getSingleMetric(prefixed(name));
    if (existing) return existing as Counter<L>;
    return new Counter({ name: prefixed(name), help, labelNames, registers: [this.registry] });
  }

  gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    const existing = this.registry.getSingleMetric(prefixed(name));
    if (existing) return existing as Gauge<L>;
    return new Gauge({ name: prefixed(name), help, labelNames, registers: [this.registry] });
  }
}
