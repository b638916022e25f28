// Declarations of source-entry.mjs (plain JavaScript: it runs in a thread before any TypeScript loader).
export function threadModule(source: URL): Promise<URL>
export function sourcesBuilt(): Promise<boolean>
export function startThread(source: URL): Promise<void>
