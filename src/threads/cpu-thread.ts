// One CPU thread of the service (src/threads/cpu.ts): merges and contexts, one at a time, in the order sent.
import { runTask, type CpuResult, type CpuTask } from './cpu-tasks.js'
import { serveThread } from './serve.js'

serveThread<CpuTask, CpuResult>(runTask)
