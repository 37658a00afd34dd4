import { ipcRenderer } from 'electron'
import { originMoveChannels, type SourceRequest } from '../shared/origin-move'
import { createSource } from '../../src/origin-move/source'

/**
 * The preload of the hidden window that main opens on an empty file:// page while the app's data
 * moves to its new origin: it reads the old origin's databases and localStorage for main, one
 * request at a time, and changes nothing. The page itself runs no script.
 */
const source = createSource()

ipcRenderer.on(
  originMoveChannels.sourceRequest,
  (_event, message: { id: number; request: SourceRequest }) => {
    void source.answer(message.request).then((answer) => {
      ipcRenderer.send(originMoveChannels.sourceAnswer, { id: message.id, answer })
    })
  },
)
