/**
 * A tiny DOM helper. Text is always inserted as text nodes (never parsed as HTML), so data from the server
 * cannot inject markup.
 *
 *   h('button', { type: 'button', onclick: () => save() }, 'Save')
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[]

interface Handlers {
  onclick?: (e: MouseEvent) => void
  onsubmit?: (e: SubmitEvent) => void
  oninput?: (e: Event) => void
  onchange?: (e: Event) => void
  onkeydown?: (e: KeyboardEvent) => void
  onclose?: (e: Event) => void
  oncancel?: (e: Event) => void
}

type AttrValue = string | number | boolean | null | undefined
export type Attrs = Handlers & { [name: string]: AttrValue | ((e: never) => void) }

/** Properties that must be set after the children exist (a <select>'s value needs its options). */
const LATE_PROPS = new Set(['value', 'checked'])

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  const late: [string, AttrValue][] = []
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (typeof value === 'function') {
        if (!name.startsWith('on')) throw new Error(`h(): function for non-event attribute ${name}`)
        el.addEventListener(name.slice(2), value as EventListener)
      } else if (LATE_PROPS.has(name)) {
        late.push([name, value])
      } else if (value === true) {
        el.setAttribute(name, '')
      } else if (value !== false && value !== null && value !== undefined) {
        el.setAttribute(name === 'className' ? 'class' : name, String(value))
      }
    }
  }
  append(el, children)
  for (const [name, value] of late) {
    if (value === null || value === undefined) continue
    if (name === 'checked') (el as unknown as HTMLInputElement).checked = Boolean(value)
    else (el as unknown as HTMLInputElement).value = String(value)
    if (name === 'value' && el instanceof HTMLInputElement) el.defaultValue = String(value)
  }
  return el
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(parent, child)
    else if (child instanceof Node) parent.appendChild(child)
    else parent.appendChild(document.createTextNode(String(child)))
  }
}

/** Replaces all children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

let idCounter = 0
/** A document-unique id for label/aria associations. */
export function uid(prefix = 'id'): string {
  idCounter += 1
  return `${prefix}-${idCounter}`
}

/** A form field: a <label> for `control` (given an id if it has none), an optional hint, then the control. */
export function labelled<T extends HTMLElement>(text: string, control: T, hint?: string): HTMLElement {
  if (!control.id) control.id = uid('field')
  const children: Child[] = [h('label', { for: control.id }, text)]
  if (hint) {
    const hintId = uid('hint')
    control.setAttribute('aria-describedby', hintId)
    children.push(h('span', { class: 'hint', id: hintId }, hint))
  }
  children.push(control)
  return h('div', { class: 'field' }, ...children)
}
