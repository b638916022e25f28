import { type Command, Option } from 'commander'
import type { ExtractOptions } from '../extract.js'
import { loadCliConfig, readStdin } from '../shared.js'

/** `extract`: the local extractor on a text, offline. */
export function addExtractCommand(program: Command): void {
  program
    .command('extract [text]')
    .description(
      'run the local extractor on a text (the argument, or standard input) and print what it finds; needs no database',
    )
    .addOption(
      new Option('--input-type <type>', "how to read the input, as the API's input_type")
        .choices(['text', 'conversation', 'structured'])
        .default('text'),
    )
    .option('--explain', 'for each value: the rule that produced it, its description and the text it matched')
    .option('--list-rules', "list the local extractor's rules and exit")
    .option('--json', 'machine-readable output')
    .action(async (text: string | undefined, opts: ExtractOptions) => {
      // Loaded here, like the service: the NLP models take a moment that the other commands need not wait for.
      const { extractCommand } = await import('../extract.js')
      // The API's bound on `data` (PROFILER_MAX_DATA_BYTES) holds here too.
      const limit = (await loadCliConfig()).limits.maxDataBytes
      const stdin = () => readStdin(limit, 'the text on standard input (PROFILER_MAX_DATA_BYTES)')
      process.stdout.write(await extractCommand(text, opts, stdin))
    })
}
