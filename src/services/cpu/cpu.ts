import type { ComposedContext } from '../../ai/profile-context.js'
import {
  composeTask,
  rankContext,
  rankPassages,
  type PassageRankTask,
  runForget,
  runMerge,
  runReextract,
  runRollback,
  runWords,
  warmUp,
  type ProfileWords,
  type WordsTask,
  type EditOutput,
  type ForgetTask,
  type ReextractTask,
  type RollbackTask,
  type ContextComposeTask,
  type ContextRanking,
  type ContextRankTask,
  type CpuResult,
  type CpuTask,
  type MergeOutput,
  type MergeTask,
} from './cpu-tasks.js'
import { ThreadPool, threadEntry, type RunOptions } from '../../threads/pool.js'
import { valueCount, type ProfileContent } from '../../domain/profile.js'

/** Values (stored plus proposed) up to which a merge runs where it is asked: well under a millisecond of work. */
export const INLINE_VALUES = 300

/** The values a merge reads: the profile's and the batch's (an extraction has the lists of a profile's content). */
export function mergeSize(task: Pick<MergeTask, 'state' | 'extractions'>): number {
  let size = valueCount(task.state.content)
  for (const ex of task.extractions) size += valueCount(ex as Partial<ProfileContent>)
  return size
}

/**
 * The service's CPU work that grows with a profile (a batch's merge, a context's ranking and composition) on worker
 * threads, so the event loop stays free for every other request while one tenant works on the largest profile the
 * limits allow. With 0 threads it runs inline (tools and tests that want one thread).
 */
export class CpuPool {
  private readonly pool?: ThreadPool<CpuTask, CpuResult>

  constructor(threads: number) {
    if (threads > 0)
      this.pool = new ThreadPool({
        name: 'cpu',
        size: threads,
        entry: threadEntry(import.meta.url, 'cpu-thread'),
        pipeline: 2,
        warmUp: { kind: 'warm-up' },
      })
  }

  /** Starts the threads and loads what a context needs on each, and on this thread, before any request. */
  async prestart(): Promise<void> {
    // This thread too: a context parses its query and counts its tokens here as well.
    await Promise.all([this.pool?.prestart(), warmUp()])
  }

  private run<T extends CpuResult>(
    task: CpuTask,
    inline: () => T | Promise<T>,
    opts: RunOptions & { inline?: boolean },
  ): Promise<T> {
    if (!this.pool || opts.inline) {
      opts.signal?.throwIfAborted()
      return Promise.resolve().then(inline)
    }
    return this.pool.run(task, opts) as Promise<T>
  }

  /**
   * A merge: inline when the profile and the batch are small (a fraction of a millisecond, less than the trip to a
   * thread and back: most batches), on a thread otherwise.
   */
  merge(task: Omit<MergeTask, 'kind'>, opts: RunOptions = {}): Promise<MergeOutput> {
    if (mergeSize(task) <= INLINE_VALUES)
      return this.run({ kind: 'merge', ...task }, () => runMerge(task), { ...opts, inline: true })
    return this.run({ kind: 'merge', ...task }, () => runMerge(task), opts)
  }

  forget(task: Omit<ForgetTask, 'kind'>, opts: RunOptions = {}): Promise<EditOutput | null> {
    return this.run({ kind: 'forget', ...task }, () => runForget(task), opts)
  }

  rollback(task: Omit<RollbackTask, 'kind'>, opts: RunOptions = {}): Promise<EditOutput> {
    return this.run({ kind: 'rollback', ...task }, () => runRollback(task), opts)
  }

  reextract(task: Omit<ReextractTask, 'kind'>, opts: RunOptions = {}): Promise<ReturnType<typeof runReextract>> {
    return this.run({ kind: 'reextract', ...task }, () => runReextract(task), opts)
  }

  words(task: Omit<WordsTask, 'kind'>, opts: RunOptions = {}): Promise<ProfileWords[]> {
    return this.run({ kind: 'words', ...task }, () => runWords(task), opts)
  }

  rankContext(task: Omit<ContextRankTask, 'kind'>, opts: RunOptions = {}): Promise<ContextRanking> {
    return this.run({ kind: 'context-rank', ...task }, () => rankContext(task), opts)
  }

  rankPassages(task: Omit<PassageRankTask, 'kind'>, opts: RunOptions = {}): Promise<Float64Array> {
    return this.run({ kind: 'passage-rank', ...task }, () => rankPassages(task), opts)
  }

  composeContext(task: Omit<ContextComposeTask, 'kind'>, opts: RunOptions = {}): Promise<ComposedContext> {
    return this.run({ kind: 'context-compose', ...task }, () => composeTask(task), opts)
  }

  /** Threads running now (tests). */
  get threads(): number {
    return this.pool?.threads ?? 0
  }

  async close(): Promise<void> {
    await this.pool?.close()
  }
}
