// `profiler extract`: the local extractor on one text, without a database or a service, to see what it finds and,
// with --explain, which rule found each value and in what words. `--list-rules` prints the rule registry.
import { validateConversation } from '../ai/conversation.js'
import { RULE_LIST, ruleDescription } from '../ai/local/rules.js'
import type { ExtractedValue, TracedValue } from '../ai/local/trace.js'
import { DomainError } from '../domain/errors.js'
import type { Extraction } from '../domain/profile.js'

export interface ExtractOptions {
  inputType: 'text' | 'conversation' | 'structured'
  explain?: boolean
  json?: boolean
  listRules?: boolean
}

/** Runs the command; returns what to print. `read` gives standard input when no text is given. */
export async function extractCommand(
  text: string | undefined,
  options: ExtractOptions,
  read: () => Promise<string>,
): Promise<string> {
  if (options.listRules) return listRules(!!options.json)
  if (text === undefined && process.stdin.isTTY) throw invalid('give the text as an argument or on standard input')
  const data = text ?? (await read())
  const { extraction, trace } = await extract(data, options.inputType)
  if (options.json) {
    const out = {
      input_type: options.inputType,
      extraction,
      ...(options.explain ? { trace: trace.map(withDescriptions) } : {}),
    }
    return JSON.stringify(out, null, 2) + '\n'
  }
  if (!trace.length) return '(nothing extracted)\n'
  return trace.map((v) => (options.explain ? explained(v, options.inputType) : valueLine(v))).join('\n') + '\n'
}

async function extract(
  data: string,
  inputType: ExtractOptions['inputType'],
): Promise<{ extraction: Extraction; trace: TracedValue[] }> {
  if (inputType === 'structured') {
    // Structured values are taken as given (confidence 1.0 when bare): no rule is involved.
    const [{ parseStructured }, { valuesOf }] = await Promise.all([
      import('../domain/structured.js'),
      import('../ai/local/trace.js'),
    ])
    const extraction = parseStructured(data)
    return { extraction, trace: valuesOf(extraction).map((v) => ({ ...v, hits: [] })) }
  }
  if (inputType === 'conversation') {
    const problem = validateConversation(data)
    if (problem) throw invalid(problem)
  }
  // Loaded here: the NLP models take a moment, and --list-rules needs none of them.
  const { LocalExtractor } = await import('../ai/local/local-extractor.js')
  return new LocalExtractor().explainOne({ inputType, data })
}

const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message)

function valueLine(value: ExtractedValue): string {
  const detail = value.detail ? ` [${value.detail}]` : ''
  const conf = value.confidence === undefined ? '' : ` (${value.confidence})`
  return `${value.field}: ${value.value}${detail}${conf}`
}

const quote = (s: string) => JSON.stringify(s)

function explained(value: TracedValue, inputType: ExtractOptions['inputType']): string {
  const lines = [valueLine(value)]
  if (!value.hits.length)
    lines.push(
      inputType === 'structured' ? '  (given in the structured input; no rule involved)' : '  (no rule recorded)',
    )
  for (const h of value.hits) {
    lines.push(`  ${h.rule}${h.confidence === undefined ? '' : ` (${h.confidence})`}: ${ruleDescription(h.rule)}`)
    if (h.match)
      lines.push(`    matched ${quote(h.match)}${h.clause && h.clause !== h.match ? ` in ${quote(h.clause)}` : ''}`)
  }
  return lines.join('\n')
}

function withDescriptions(value: TracedValue) {
  return {
    ...value,
    hits: value.hits.map(({ rule, ...rest }) => ({ rule, description: ruleDescription(rule), ...rest })),
  }
}

function listRules(json: boolean): string {
  if (json) return JSON.stringify(RULE_LIST, null, 2) + '\n'
  const width = Math.max(...RULE_LIST.map((r) => r.id.length))
  const lines: string[] = []
  RULE_LIST.forEach((rule, index) => {
    if (index > 0 && RULE_LIST[index - 1]!.section !== rule.section) lines.push('')
    lines.push(`${rule.id.padEnd(width)}  ${rule.description}`)
  })
  lines.push('', `${RULE_LIST.length} rules`)
  return lines.join('\n') + '\n'
}
