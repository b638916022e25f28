// `node --import ./test/support/module-log.mjs …`: every module the process resolves through the ESM loader is
// appended, as a URL per line, to the file named by PROFILER_TEST_MODULE_LOG. What a test reads to tell which
// packages a real process loaded (the hooks run on the loader's thread, which shares the environment).
import { register } from 'node:module'

register('./module-log-hooks.mjs', import.meta.url)
