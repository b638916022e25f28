import fs from 'node:fs'
import path from 'node:path'
import { PACKAGE_ROOT } from '../../paths.js'

/** Prompts live in versioned files; the version is recorded with every submission they served. */
export interface Prompt {
  version: string
  text: string
}

const cache = new Map<string, Prompt>()

export function loadPrompt(version: string): Prompt {
  let prompt = cache.get(version)
  if (!prompt) {
    const file = path.join(PACKAGE_ROOT, 'src/ai/openai/prompts', `${version}.md`)
    prompt = { version, text: fs.readFileSync(file, 'utf8').trim() }
    cache.set(version, prompt)
  }
  return prompt
}

export const EXTRACT_PROMPT = 'extract-v3'
export const SUMMARIZE_PROMPT = 'summarize-v1'
