// docs/reference/cli.md, generated from the commands themselves (src/cli/program.ts).
import type { Command, Option } from 'commander'
import { buildProgram } from '../../src/cli/program.js'

/** The leaf commands of `program`, depth first, with their full names ("app create"). */
function leaves(command: Command, prefix: string[] = []): { path: string[]; command: Command }[] {
  const subcommands = command.commands as Command[]
  if (!subcommands.length) return [{ path: prefix, command }]
  return subcommands.flatMap((sub) => leaves(sub, [...prefix, sub.name()]))
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function optionRow(option: Option): string {
  const notes: string[] = []
  if (option.mandatory) notes.push('required')
  if (option.defaultValue !== undefined) notes.push(`default \`${String(option.defaultValue)}\``)
  if (option.envVar) notes.push(`env \`${option.envVar}\``)
  if (option.argChoices) notes.push(`one of ${option.argChoices.map((choice) => `\`${choice}\``).join(', ')}`)
  const description = option.description + (notes.length ? ` (${notes.join('; ')})` : '')
  return `| \`${option.flags}\` | ${escapeCell(description)} |`
}

/** A command's description as a sentence: capitalised, ending with a full stop. */
function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?)]$/.test(capitalised) ? capitalised : `${capitalised}.`
}

function commandSection(path: string[], command: Command): string {
  const args = command.registeredArguments.map((arg) => (arg.required ? `<${arg.name()}>` : `[${arg.name()}]`))
  const options = (command.options as Option[]).filter((option) => !option.hidden)
  const usage = ['profiler', ...path, ...args, ...(options.length ? ['[options]'] : [])].join(' ')
  const lines = [`### profiler ${path.join(' ')}`, '', sentence(command.description()), '', '```', usage, '```', '']
  if (options.length) lines.push('| option | what it does |', '|---|---|', ...options.map(optionRow), '')
  return lines.join('\n')
}

/** One section a command, with its usage and options. */
export function cliReference(): string {
  const program = buildProgram()
  const sections = leaves(program).map(({ path, command }) => commandSection(path, command))
  return sections.join('\n').replace(/\n+$/, '\n')
}
