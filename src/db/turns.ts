/**
 * A turn for whatever else waits (the page's input and frames, a worker's next message) between two
 * slices of long work: a task of its own, posted through a message channel. A timer of 0 is held
 * back from its fifth nesting on, which a loop of slices reaches at once.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}
