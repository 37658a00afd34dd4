/** Naive UI's form renders a real <form>: keep Enter from reloading the page, then run the action. */
export function onSubmit(event: Event, action: () => Promise<void>): void {
  event.preventDefault()
  void action()
}
