/**
 * In-process metrics in the Prometheus text format (version 0.0.4): counters and histograms kept
 * in maps, so recording one costs a map lookup and an addition on the request's path. Each process
 * exposes its own figures; Prometheus adds them up across processes.
 */

type Labels = Record<string, string>;

const renderLabels = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((key) => `${key}="${String(labels[key]).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

const MAX_SERIES = 2_000;

/** Label sets rendered before, by their names and values as given: a figure recorded on a request's path renders nothing. */
const rendered = new Map<string, string>();

const labelKey = (labels: Labels) => {
  let raw = '';
  for (const key in labels) raw += `${key}\u0000${labels[key]}\u0001`;
  let key = rendered.get(raw);
  if (key === undefined) {
    key = renderLabels(labels);
    if (rendered.size < MAX_SERIES * 4) rendered.set(raw, key);
  }
  return key;
};

export class Counter {
  readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1) {
    const key = labelKey(labels);
    if (!this.values.has(key) && this.values.size >= MAX_SERIES) return;
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, value] of this.values) lines.push(`${this.name}${key ? `{${key}}` : ''} ${value}`);
    return lines;
  }
}

export class Histogram {
  readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: number[],
  ) {}
  observe(labels: Labels, value: number) {
    const key = labelKey(labels);
    let entry = this.series.get(key);
    if (!entry) {
      if (this.series.size >= MAX_SERIES) return;
      entry = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    for (let i = 0; i < this.bounds.length; i += 1) {
      if (value <= (this.bounds[i] as number)) entry.buckets[i] = (entry.buckets[i] ?? 0) + 1;
    }
    entry.sum += value;
    entry.count += 1;
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, entry] of this.series) {
      const prefix = key ? `${key},` : '';
      this.bounds.forEach((bound, i) => {
        lines.push(`${this.name}_bucket{${prefix}le="${bound}"} ${entry.buckets[i]}`);
      });
      lines.push(`${this.name}_bucket{${prefix}le="+Inf"} ${entry.count}`);
      lines.push(`${this.name}_sum${key ? `{${key}}` : ''} ${entry.sum}`);
      lines.push(`${this.name}_count${key ? `{${key}}` : ''} ${entry.count}`);
    }
    return lines;
  }
}

const series = (type: 'gauge' | 'counter', name: string, help: string, rows: { labels?: Labels; value: number }[]) => [
  `# HELP ${name} ${help}`,
  `# TYPE ${name} ${type}`,
  ...rows.map((row) => {
    const key = labelKey(row.labels ?? {});
    return `${name}${key ? `{${key}}` : ''} ${row.value}`;
  }),
];

export const gauge = (name: string, help: string, rows: { labels?: Labels; value: number }[]): string[] =>
  series('gauge', name, help, rows);
const counter = (name: string, help: string, rows: { labels?: Labels; value: number }[]): string[] =>
  series('counter', name, help, rows);

export const metrics = {
  httpRequests: new Counter('switchboard_http_requests_total', 'HTTP requests answered, by method, route and status.'),
  httpDuration: new Histogram(
    'switchboard_http_request_duration_seconds',
    'Time from receiving a request to sending its answer, by method and route.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ),
  modelCalls: new Counter(
    'switchboard_model_calls_total',
    'Model calls made through the LLM gateway, by provider, source and outcome (ok or error).',
  ),
  modelTokens: new Counter(
    'switchboard_model_tokens_total',
    'Tokens of model calls, by provider and kind (input or output).',
  ),
  modelDuration: new Histogram(
    'switchboard_model_call_duration_seconds',
    'Duration of model calls, by provider.',
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  ),
  creditsSpent: new Counter(
    'switchboard_credits_spent_total',
    'Credits metered for model calls, by provider and source.',
  ),
};

export const renderMetrics = (extra: string[] = []): string => {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const lines = [
    ...metrics.httpRequests.render(),
    ...metrics.httpDuration.render(),
    ...metrics.modelCalls.render(),
    ...metrics.modelTokens.render(),
    ...metrics.modelDuration.render(),
    ...metrics.creditsSpent.render(),
    ...extra,
    ...gauge('process_resident_memory_bytes', 'Resident memory of this process.', [{ value: memory.rss }]),
    ...gauge('process_max_resident_memory_bytes', 'Highest resident memory of this process so far.', [
      { value: process.resourceUsage().maxRSS * 1024 },
    ]),
    ...gauge('nodejs_heap_used_bytes', 'V8 heap in use.', [{ value: memory.heapUsed }]),
    ...counter('process_cpu_seconds_total', 'CPU time of this process (all its threads), user and system.', [
      { value: (cpu.user + cpu.system) / 1e6 },
    ]),
    ...counter(
      'nodejs_eventloop_active_seconds_total',
      'Time the main thread spent running code (event-loop utilisation is active / (active + idle)).',
      [{ value: loop.active / 1000 }],
    ),
    ...counter('nodejs_eventloop_idle_seconds_total', 'Time the main thread waited for events.', [
      { value: loop.idle / 1000 },
    ]),
    ...gauge('process_uptime_seconds', 'Seconds since this process started.', [
      { value: Math.round(process.uptime()) },
    ]),
  ];
  return `${lines.join('\n')}\n`;
};
