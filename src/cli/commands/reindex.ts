import { type Command, Option } from 'commander'
import type { Cli } from '../../app.js'
import { withCli } from '../shared.js'

interface ReindexOptions {
  all?: boolean
  summaries?: boolean
  batch: string
}

/** `reindex`: summaries, embeddings and passages brought in line with the configured AI provider. */
export function addReindexCommand(program: Command): void {
  program
    .command('reindex')
    .description(
      'bring summaries and embeddings (of profiles and evidence passages) in line with the configured AI provider, ' +
        'and rebuild the passages of submissions that have text and none ' +
        '(resumable; adapts the embedding column when the dimension changed)',
    )
    .option('--all', 're-embed every profile and passage, not only those without an embedding of the configured model')
    .option('--summaries', 'also rewrite every summary (one AI request per profile with PROFILER_AI=openai)')
    .addOption(new Option('--batch <n>', 'profiles (submissions, passages) per batch').default('50'))
    .action((opts: ReindexOptions) => withCli((cli) => reindex(cli, opts), { long: true }))
}

async function reindex(cli: Cli, opts: ReindexOptions): Promise<void> {
  const batch = Number(opts.batch)
  const reindexer = await cli.reindexer()
  const changed = await reindexer.adaptColumn()
  if (changed) process.stdout.write(`Embedding column changed from ${changed.from} to ${changed.to} dimensions.\n`)
  const profiles = await reindexer.run(profileProgress(), { all: opts.all, summaries: opts.summaries, batch })
  if (process.stderr.isTTY) process.stderr.write('\n')
  process.stdout.write(`Reindexed ${profiles} profiles.\n`)
  // Evidence passages: rebuilt for submissions with text and none (older imports), then embedded where they lack a
  // vector of the configured model.
  const { progress } = await import('../progress.js')
  const rebuilding = progress('passages', 'submissions')
  const rebuilt = await reindexer.rebuildPassages(rebuilding.update, { batch })
  rebuilding.end()
  const embedding = progress('passages', 'passages')
  const embedded = await reindexer.embedPassages(embedding.update, { all: opts.all, batch })
  embedding.end()
  process.stdout.write(
    `Rebuilt ${rebuilt.passages} passages of ${rebuilt.submissions} submissions; embedded ${embedded} passages.\n`,
  )
}

/** The profiles' progress: a bar on a terminal, else a line at every tenth of the way. */
function profileProgress(): (done: number, total: number) => void {
  const tty = process.stderr.isTTY
  let lastPercent = -1
  return (done, total) => {
    const percent = total ? Math.floor((done / total) * 100) : 100
    if (tty) {
      const bar = '#'.repeat(Math.floor(percent / 5)).padEnd(20, '-')
      process.stderr.write(`\r[${bar}] ${done}/${total} (${percent}%)`)
    } else if (percent >= lastPercent + 10 || done === total) {
      process.stderr.write(`reindex: ${done}/${total} (${percent}%)\n`)
      lastPercent = percent
    }
  }
}
