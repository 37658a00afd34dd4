import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import { invoke } from '@/bridge'
import { notify } from '@/ui/notify'
import { useImportsStore } from './imports'
import { useSearchesStore } from './searches'

/**
 * "Try a sample list", on the sandbox before a key is set: the sandbox's lead search of the
 * sample's known people runs first, so the library knows them, then the sample's CSV opens the
 * import dialog as a dropped file does (docs/sandbox.md).
 */
export const useSampleStore = defineStore('sample', () => {
  const preparing = ref(false)

  /**
   * Resolves once the run has stopped and what it found is in the library. A run that waits on the
   * user (on hold, uncertain) stops the wait too: the sample opens without the people it missed.
   */
  async function settled(runId: string): Promise<void> {
    const searches = useSearchesStore()
    const ended = () => {
      const run = searches.runs.find((candidate) => candidate.id === runId)
      return !run || (run.state !== 'queued' && run.state !== 'running')
    }
    if (!ended()) {
      await new Promise<void>((resolve) => {
        const stop = watch(
          () => searches.runs,
          () => {
            if (!ended()) return
            stop()
            resolve()
          },
        )
      })
    }
    await searches.drain(runId)
  }

  async function trySample(): Promise<void> {
    if (preparing.value) return
    preparing.value = true
    try {
      const sample = await invoke('sandbox/sample')
      if (!sample.ok) {
        notify.error(sample.error)
        return
      }
      const { search, csv, fileName } = sample.data
      const searches = useSearchesStore()
      await searches.load()
      const started = await searches.start(
        { kind: 'lead', search: { filters: search.filters, limit: search.limit, email: search.email } },
        search.label,
      )
      // Without the search the sample is still a list to enrich; only the library knows nobody yet.
      if (started.error) notify.error(started.error)
      else await settled(started.runId)
      useImportsStore().request(new File([csv], fileName, { type: 'text/csv' }))
    } finally {
      preparing.value = false
    }
  }

  return { preparing, trySample }
})
