// A horizontal bar chart as plain SVG (no dependency): one bar per measurement, its value and a note beside it.
export interface Bar {
  label: string
  value: number
  note?: string
  /** Baselines are drawn in grey, the service in blue. */
  baseline?: boolean
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function barChart(title: string, unit: string, bars: Bar[]): string {
  const labelW = 250
  const barW = 380
  const rowH = 28
  const top = 40
  const width = labelW + barW + 230
  const height = top + bars.length * rowH + 20
  const max = Math.max(...bars.map((b) => b.value), 1)
  const rows = bars.map((b, i) => {
    const y = top + i * rowH
    const w = Math.max(1, (b.value / max) * barW)
    const fill = (b.baseline ?? /^bare|baseline|raw|exact/i.test(b.label)) ? '#9aa0a6' : '#1a73e8'
    return [
      `<text x="${labelW - 8}" y="${y + 17}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${labelW}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${fill}"/>`,
      `<text x="${labelW + w + 6}" y="${y + 17}">${esc(`${b.value.toLocaleString('en-US')} ${unit}${b.note ? `  (${b.note})` : ''}`)}</text>`,
    ].join('')
  })
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="24" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...rows,
    `</svg>`,
    '',
  ].join('\n')
}
