/**
 * Progress of a long CLI command on standard error: a bar redrawn in place when stderr is a terminal, otherwise a plain
 * line at every tenth of the way (or every 10 s when the total is unknown or progress is slow), so logs stay readable.
 */
export function progress(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr) {
  const tty = !!stream.isTTY
  const began = Date.now()
  let lastTenth = -1
  let lastLine = 0
  let drawn = false
  return {
    update(done: number, total: number) {
      const secs = (Date.now() - began) / 1000
      const rate = secs > 0 ? done / secs : 0
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100
      const tail = `${done}/${total} ${unit} (${pct}%, ${rate.toFixed(rate < 10 ? 1 : 0)}/s)`
      if (tty) {
        const bar = '#'.repeat(Math.floor(pct / 5)).padEnd(20, '-')
        stream.write(`\r${label} [${bar}] ${tail}`)
        drawn = true
      } else if (Math.floor(pct / 10) > lastTenth || Date.now() - lastLine > 10_000) {
        stream.write(`${label}: ${tail}\n`)
        lastTenth = Math.floor(pct / 10)
        lastLine = Date.now()
      }
    },
    end() {
      if (drawn) stream.write('\n')
    },
  }
}
