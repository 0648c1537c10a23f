import { metrics, trace } from '@opentelemetry/api'
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

/** A reader that collects only when the test asks. */
class ManualReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One metric's data points, as collected. */
export interface CollectedMetric {
  readonly scope: string
  readonly unit: string
  readonly points: ReadonlyArray<DataPoint<unknown>>
}

/** The SDK's real tracer and meter providers with an in-memory exporter and a manual reader. */
export function telemetryRecorder() {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  const reader = new ManualReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  return {
    spans,
    tracerProvider,
    meterProvider,
    /** Every metric collected now, by name. */
    async collect(): Promise<Map<string, CollectedMetric>> {
      const { resourceMetrics } = await reader.collect()
      const byName = new Map<string, CollectedMetric>()
      for (const scope of resourceMetrics.scopeMetrics)
        for (const metric of scope.metrics)
          byName.set(metric.descriptor.name, { scope: scope.scope.name, unit: metric.descriptor.unit, points: metric.dataPoints })
      return byName
    },
    /** Registers both as the global providers, as a shop's SDK set-up does; `unregister` undoes it. */
    register() {
      trace.setGlobalTracerProvider(tracerProvider)
      metrics.setGlobalMeterProvider(meterProvider)
    },
    unregister() {
      trace.disable()
      metrics.disable()
    },
  }
}
