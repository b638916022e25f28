// One CPU thread of the service (src/services/cpu/cpu.ts): merges and contexts, one at a time, in the order sent.
import { runTask, type CpuResult, type CpuTask } from './cpu-tasks.js'
import { serveThread } from '../../threads/serve.js'

serveThread<CpuTask, CpuResult>(runTask)
