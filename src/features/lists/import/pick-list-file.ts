import { notify } from '@/ui/notify'
import { useImportsStore } from '@/stores/imports'

const accept =
  '.csv,.tsv,.txt,.xlsx,.xlsm,text/csv,text/tab-separated-values,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Lets the user choose a file and hands it to the import dialog (or to `hand`, when given): the
 * system dialog in Electron (main opens it), a file input where the backend cannot (the web host).
 * Resolves with the file, or null when the user changed their mind.
 */
export async function pickListFile(hand?: (file: File) => void): Promise<File | null> {
  const imports = useImportsStore()
  const picked = await imports.pickWithSystemDialog()
  let file: File | null
  if (picked.ok) file = picked.data
  else if (picked.error.code === 'not_available') file = await chooseWithInput()
  else {
    notify.error(picked.error)
    return null
  }
  if (file) (hand ?? imports.request)(file)
  return file
}

function chooseWithInput(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = accept
    input.style.display = 'none'
    const done = (file: File | null) => {
      input.remove()
      resolve(file)
    }
    input.addEventListener('change', () => done(input.files?.[0] ?? null), { once: true })
    input.addEventListener('cancel', () => done(null), { once: true })
    document.body.append(input)
    input.click()
  })
}
