/**
 * Runs `work` when asked, one run at a time. Asked while a run is under way, it runs once more after
 * it, however often it was asked meanwhile: the outbox is polled on every NOTIFY, and a burst of
 * them costs at most one more poll. A failed run is handed to `failed`; later runs go on.
 */
export function oneRunAtATime(work: () => Promise<unknown>, failed: (err: unknown) => void) {
  let running: Promise<void> | null = null;
  let again = false;
  const request = (): void => {
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
          request();
        }
      });
  };
  return {
    /** Starts a run now, or once more after the run under way. */
    request,
    /** Resolves once no run is under way or asked for. */
    async settled(): Promise<void> {
      while (running) await running;
    },
  };
}
