/**
 * Runs `work` one run at a time. Asked while a run is under way, it runs once more after it,
 * however often it was asked meanwhile: the outbox is drained on every NOTIFY, and a burst of them
 * costs at most one more drain. A failed run is handed to `failed`; later runs go on.
 */
export function coalesced(work: () => Promise<unknown>, failed: (err: unknown) => void) {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = work()
      .then(
        () => undefined,
        (err: unknown) => failed(err),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return {
    run,
    /** Resolves once no run is under way or asked for. */
    async settled(): Promise<void> {
      while (running) await running;
    },
  };
}
