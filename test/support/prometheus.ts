// Reading /metrics as Prometheus would: over HTTP, parsed by a Prometheus text-format parser (prom2javascript), which
// rejects a malformed line. Helpers pick series by name and labels.
import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from 'prom2javascript'

export interface Scrape {
  families: PromMetrics
  text: string
  /** Samples (counters, gauges) of a family whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): PromData[]
  /** The summed value of those samples (0 when none). */
  value(name: string, labels?: Record<string, string>): number
  /** Histogram series whose labels include `labels`. */
  histograms(name: string, labels?: Record<string, string>): PromHistogramData[]
  /** Observations of those histogram series, summed (0 when none). */
  count(name: string, labels?: Record<string, string>): number
}

const matches = (have: Record<string, string>, want: Record<string, string>) =>
  Object.entries(want).every(([k, v]) => have[k] === v)

export async function parseMetrics(text: string): Promise<Scrape> {
  // NaN is a valid value (the format reads values with Go's ParseFloat; prom-client writes `Nan`, e.g. for the
  // event-loop lag mean before its first sample) that this parser does not take: such a line is parsed with 0 in its
  // place, and its sample then set to NaN.
  const nan: string[] = []
  const lines = text.split('\n').map((l) => {
    const m = /^(.*\S)\s+nan$/i.exec(l)
    if (!m || l.startsWith('#')) return l
    nan.push(`${m[1]} 0`)
    return `${m[1]} 0`
  })
  const families = await getMetricsFromIterator(lines[Symbol.iterator]())
  for (const line of nan) {
    const one = await getMetricsFromIterator([line][Symbol.iterator]())
    for (const [name, f] of Object.entries(one)) {
      const want = JSON.stringify((f.data[0] as PromData).labels)
      for (const d of (families[name]?.data ?? []) as PromData[]) if (JSON.stringify(d.labels) === want) d.value = NaN
    }
  }
  const family = (name: string) => families[name]
  const s: Scrape = {
    families,
    text,
    samples: (name, labels = {}) =>
      ((family(name)?.data ?? []) as PromData[]).filter((d) => 'value' in d && matches(d.labels, labels)),
    value: (name, labels) => s.samples(name, labels).reduce((n, d) => n + d.value, 0),
    histograms: (name, labels = {}) =>
      ((family(name)?.data ?? []) as PromHistogramData[]).filter((d) => 'buckets' in d && matches(d.labels, labels)),
    count: (name, labels) => s.histograms(name, labels).reduce((n, d) => n + d.count, 0),
  }
  return s
}

/** GET `url` (a /metrics URL); must answer 200 in the text format. */
export async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text}`)
  const type = res.headers.get('content-type') ?? ''
  if (!type.startsWith('text/plain') || !type.includes('version=0.0.4'))
    throw new Error(`GET ${url}: Content-Type ${type}`)
  return parseMetrics(text)
}
