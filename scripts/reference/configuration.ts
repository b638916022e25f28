// docs/operations/configuration.md, generated from the settings registry (src/settings.ts).
import { SETTING_GROUPS, type SettingGroup, allSettings } from '../../src/settings.js'

/** A line under a group's heading that points to the guide of its topic. */
const GROUP_NOTES: Partial<Record<SettingGroup, string>> = {
  openai: 'See [AI providers](../guides/ai-providers.md) for how to set up each provider.',
  metrics: 'See [observability](observability.md).',
  otel: 'See [observability](observability.md).',
  webhooks: 'See [webhooks](../guides/webhooks.md) for the SSRF policy and signing.',
  profiles: 'See [limits](limits.md) for what happens at each limit.',
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|')
}

/** One table a group of settings. */
export function configurationReference(): string {
  const byGroup = new Map<SettingGroup, string[]>()
  for (const { group, setting } of allSettings()) {
    const row =
      `| \`${setting.env}\` | ${cell(setting.shownType)} | ${cell(setting.shownDefault ?? '(none)')} | ` +
      `${cell(setting.description)} |`
    byGroup.set(group, [...(byGroup.get(group) ?? []), row])
  }
  const sections = (Object.keys(SETTING_GROUPS) as SettingGroup[])
    .filter((group) => byGroup.has(group))
    .map((group) => {
      const note = GROUP_NOTES[group] ? [GROUP_NOTES[group], ''] : []
      const table = ['| variable | type | default | meaning |', '|---|---|---|---|', ...byGroup.get(group)!]
      return [`## ${SETTING_GROUPS[group]}`, '', ...note, ...table, ''].join('\n')
    })
  return sections.join('\n')
}
