/**
 * Files dropped on the window before the workspace, and its drop overlay, have loaded: the shell
 * shows and takes input first. Such a drop is kept rather than lost, and the browser does not
 * open the file in place of the app; the overlay takes it as it mounts (`takeEarlyDrop`).
 */

let dropped: File[] | null = null

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false

function onDragOver(event: DragEvent): void {
  if (carriesFiles(event)) event.preventDefault()
}

function onDrop(event: DragEvent): void {
  if (!carriesFiles(event)) return
  event.preventDefault()
  const files = event.dataTransfer?.files
  if (files && files.length > 0) dropped = [...files]
}

/** Keeps what is dropped on the window until `takeEarlyDrop`; called as the shell starts. */
export function catchEarlyDrops(): void {
  window.addEventListener('dragover', onDragOver)
  window.addEventListener('drop', onDrop)
}

/** The files dropped before the overlay was there (null for none); from now on the overlay takes drops. */
export function takeEarlyDrop(): File[] | null {
  window.removeEventListener('dragover', onDragOver)
  window.removeEventListener('drop', onDrop)
  const files = dropped
  dropped = null
  return files
}
