// A thread module of the tests only (test/unit/source-entry.test.ts): it has no compiled counterpart in dist/, so the
// sources' thread start loads it through tsx. It answers with its own URL and a value computed by TypeScript.
import { parentPort } from 'node:worker_threads'

const double = (n: number): number => n * 2
parentPort!.postMessage({ url: import.meta.url, value: double(21) satisfies number })
